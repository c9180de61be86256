// The connection badge in the top bar (#conn): the state of the page's live socket, as
// uno-client's sessions and feeds report it as their `status`.

import { t } from "./i18n.js";

/** Show `status` ({state, retryIn, code, reason}) on the badge. */
export function showConnection(status) {
  const el = document.getElementById("conn");
  if (!el) return;
  el.dataset.state = status.state;
  el.dataset.testid = "connection";
  if (status.state === "online") el.textContent = t("conn.online");
  else if (status.state === "offline")
    el.textContent = t("conn.offline", { s: Math.ceil((status.retryIn || 0) / 1000) });
  else if (status.state === "failed")
    el.textContent = t("conn.failed", { why: status.reason || status.code || "?" });
  else el.textContent = t("conn.connecting");
}
