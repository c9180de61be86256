// "Play now" on the front page: join the quick-play queue (as the signed-in account, or
// as a guest under the lobby's name), show the wait live, cancel, and go to the table
// once one is found (docs/ratings.md, "Quick play").
import { client } from "../client.js";
import { t } from "../i18n.js";
import { storage } from "../storage.js";
import { fillPools, signedIn } from "./client.js";

function el(tag, attrs = {}, text = "") {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text) node.textContent = text;
  return node;
}

/**
 * The wait in words, from the ticket socket's `queued` push: how many wait (`waiting`,
 * this player included) and when bots fill the table (`fillSeconds`); a server that sends
 * neither gets the seconds waited only.
 */
export function waitText(wait) {
  const parts = [];
  if (Number.isInteger(wait.waiting)) parts.push(t("playNow.waiting", { n: wait.waiting }));
  if (Number.isInteger(wait.fillSeconds)) {
    parts.push(wait.fillSeconds > 0 ? t("playNow.fillIn", { n: wait.fillSeconds }) : t("playNow.fillNow"));
  }
  if (!parts.length) return t("playNow.looking", { n: wait.waitedSeconds ?? 0 });
  return parts.join(t("playNow.separator"));
}

/** The section, made once per lobby; `guestName()` is the name typed in the lobby. */
export function playNowSection(guestName) {
  const section = el("section", { class: "panel play-now", "aria-labelledby": "play-now-h" });
  const title = el("h2", { id: "play-now-h" }, t("playNow.title"));
  const who = el("p", { class: "muted", "data-testid": "play-now-who" });
  const pool = el("select", { id: "play-now-pool", "data-testid": "play-now-pool", "aria-label": t("playNow.pool") });
  fillPools(pool);
  const start = el("button", { type: "button", "data-testid": "play-now" }, t("playNow.title"));
  const cancel = el("button", { type: "button", "data-testid": "play-now-cancel", hidden: "" }, t("playNow.cancel"));
  const status = el("p", { role: "status", "aria-live": "polite", "data-testid": "play-now-status" });
  section.append(title, who, pool, start, cancel, status);

  let ticket = null;
  let socket = null;

  function idle(message = "") {
    ticket = null;
    if (socket) socket.close();
    socket = null;
    start.hidden = false;
    cancel.hidden = true;
    pool.disabled = false;
    status.textContent = message;
  }

  // Signed in or not, in the language of now (the lobby calls it on each redraw).
  function describe() {
    title.textContent = t("playNow.title");
    pool.setAttribute("aria-label", t("playNow.pool"));
    for (const option of pool.options) option.textContent = t(`pool.${option.value}`);
    if (start.textContent !== t("playNow.title")) start.textContent = t("playNow.title");
    cancel.textContent = t("playNow.cancel");
    const account = signedIn();
    who.textContent = account ? t("playNow.asAccount", { name: account.name }) : t("playNow.asGuest");
  }

  start.addEventListener("click", async () => {
    const account = signedIn();
    // A guest who typed no name is named by the server ("Guest 4821"): a shared
    // "Guest" would never sit at one table with another.
    const name = account ? account.name : guestName() || undefined;
    status.textContent = t("playNow.joining");
    let joined;
    try {
      joined = await client.quickplay(account ? { pool: pool.value, token: account.token } : { pool: pool.value, name });
    } catch (err) {
      idle(err.message || t("playNow.joinFailed"));
      return;
    }
    ticket = joined.ticket;
    start.hidden = true;
    cancel.hidden = false;
    pool.disabled = true;
    const feed = client.quickplayFeed(ticket);
    socket = feed;
    feed.on("queued", (wait) => {
      status.textContent = waitText(wait);
    });
    feed.on("matched", (match) => {
      storage.setSeat(match.roomId, { seat: match.seat, token: match.token, name: match.name ?? name, code: null });
      socket = null;
      idle(t("playNow.found"));
      location.hash = `#/room/${encodeURIComponent(match.roomId)}`;
    });
    feed.on("status", (change) => {
      if (socket === feed && change.state === "failed" && change.code === 4004) {
        socket = null;
        idle(t("playNow.dropped"));
      }
    });
  });

  cancel.addEventListener("click", async () => {
    const leaving = ticket;
    idle(t("playNow.left"));
    if (leaving) {
      try {
        await client.leaveQueue(leaving);
      } catch {
        // Already matched or dropped: out of the queue either way.
      }
    }
  });

  describe();
  return { element: section, describe };
}
