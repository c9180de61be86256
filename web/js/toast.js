// Short messages over the page. Refused actions use role="alert" so screen readers say
// them at once; they carry the server's code for tests and for bug reports.

import { h } from "./dom.js";
import { t } from "./i18n.js";

const SHOW_MS = 5000;

export function toast(text, { kind = "info", code = null } = {}) {
  const box = document.getElementById("toasts");
  if (!box) return;
  const el = h(
    "div",
    {
      class: `toast toast-${kind}`,
      role: kind === "error" ? "alert" : "status",
      "data-testid": "toast",
      "data-code": code,
    },
    [text],
  );
  const close = () => el.remove();
  el.append(
    h("button", { type: "button", class: "toast-close", "aria-label": t("toast.close"), onClick: close }, ["×"]),
  );
  box.append(el);
  // Keep at most a few on a phone screen.
  while (box.children.length > 3) box.firstElementChild.remove();
  setTimeout(close, SHOW_MS);
}

/** Say `text` to screen-reader users without showing anything. */
export function announce(text) {
  const el = document.getElementById("announcer");
  if (!el || !text) return;
  // Replacing the text (after a tick) makes repeated messages be read again.
  el.textContent = "";
  setTimeout(() => {
    el.textContent = text;
  }, 50);
}
