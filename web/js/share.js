// Sharing a room with the friends at the same table: copy the join link, or scan its QR
// code. The QR encoder is Kazuhiko Arase's qrcode-generator (MIT, npm
// `qrcode-generator` 2.0.4, dist/qrcode.mjs, vendored unchanged in vendor/qrcode.js).

import { h, svg } from "./dom.js";
import { t } from "./i18n.js";
import { toast } from "./toast.js";
import qrcode from "./vendor/qrcode.js";

/** The QR code of `text` as an SVG drawing (dark modules as one path; a quiet zone of 4). */
export function qrCode(text) {
  const qr = qrcode(0, "M");
  qr.addData(text);
  qr.make();
  const n = qr.getModuleCount();
  const quiet = 4;
  let d = "";
  for (let y = 0; y < n; y += 1) {
    for (let x = 0; x < n; x += 1) if (qr.isDark(y, x)) d += `M${x + quiet} ${y + quiet}h1v1h-1z`;
  }
  const size = n + quiet * 2;
  return svg(
    "svg",
    {
      viewBox: `0 0 ${size} ${size}`,
      class: "qr",
      role: "img",
      "aria-label": t("share.qr"),
      "data-testid": "qr",
      "data-modules": n,
      "shape-rendering": "crispEdges",
    },
    [svg("rect", { width: size, height: size, fill: "#fff" }), svg("path", { d, fill: "#000" })],
  );
}

async function copy(link) {
  try {
    await navigator.clipboard.writeText(link);
  } catch {
    // No clipboard permission (or an insecure page): select the link for the player.
    const area = h("textarea", { class: "visually-hidden" }, [link]);
    document.body.append(area);
    area.select();
    try {
      document.execCommand("copy");
    } catch {
      // nothing more to try
    }
    area.remove();
  }
  toast(t("share.copied"), { code: "copied" });
}

/** The copy button and the QR code of `link`. */
export function shareTools(link) {
  return h("div", { class: "share-tools" }, [
    h("button", { type: "button", "data-testid": "copy-link", onClick: () => copy(link) }, [t("share.copy")]),
    qrCode(link),
  ]);
}
