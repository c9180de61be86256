// "Play now" on the front page: join the quick-play queue (as the signed-in account, or
// as a guest under the lobby's name), show the wait live, cancel, and go to the table
// once one is found (docs/ratings.md, "Quick play").
import { client } from "../client.js";
import { storage } from "../storage.js";
import { signedIn } from "./client.js";

function el(tag, attrs = {}, text = "") {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text) node.textContent = text;
  return node;
}

/** The section, made once per lobby; `guestName()` is the name typed in the lobby. */
export function playNowSection(guestName) {
  const section = el("section", { class: "panel play-now", "aria-labelledby": "play-now-h" });
  const title = el("h2", { id: "play-now-h" }, "Play now");
  const who = el("p", { class: "muted", "data-testid": "play-now-who" });
  const pool = el("select", { id: "play-now-pool", "data-testid": "play-now-pool", "aria-label": "Game" });
  for (const name of ["classic", "duo", "flip", "party"]) pool.append(el("option", { value: name }, name));
  const start = el("button", { type: "button", "data-testid": "play-now" }, "Play now");
  const cancel = el("button", { type: "button", "data-testid": "play-now-cancel", hidden: "" }, "Cancel");
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

  function describe() {
    const account = signedIn();
    who.textContent = account
      ? `One rated deal against players near your rating, as ${account.name}.`
      : "One rated deal against players near your level, as a guest.";
  }

  start.addEventListener("click", async () => {
    const account = signedIn();
    // A guest who typed no name is named by the server ("Guest 4821"): a shared
    // "Guest" would never sit at one table with another.
    const name = account ? account.name : guestName() || undefined;
    status.textContent = "Joining the queue…";
    let joined;
    try {
      joined = await client.quickplay(account ? { pool: pool.value, token: account.token } : { pool: pool.value, name });
    } catch (err) {
      idle(err.message || "Could not join the queue.");
      return;
    }
    ticket = joined.ticket;
    start.hidden = true;
    cancel.hidden = false;
    pool.disabled = true;
    const feed = client.quickplayFeed(ticket);
    socket = feed;
    feed.on("queued", (wait) => {
      status.textContent = `Looking for players… ${wait.waitedSeconds} s`;
    });
    feed.on("matched", (match) => {
      storage.setSeat(match.roomId, { seat: match.seat, token: match.token, name: match.name ?? name, code: null });
      socket = null;
      idle("Table found!");
      location.hash = `#/room/${encodeURIComponent(match.roomId)}`;
    });
    feed.on("status", (change) => {
      if (socket === feed && change.state === "failed" && change.code === 4004) {
        socket = null;
        idle("The queue dropped this ticket: try again.");
      }
    });
  });

  cancel.addEventListener("click", async () => {
    const leaving = ticket;
    idle("Left the queue.");
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
