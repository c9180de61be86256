// "Play now" on the front page: join the quick-play queue (as the signed-in account, or
// as a guest under the lobby's name), show the wait live, cancel, and go to the table
// once one is found (docs/ratings.md, "Quick play").
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
    const body = { pool: pool.value };
    const headers = { "Content-Type": "application/json", Accept: "application/json" };
    if (account) headers.Authorization = `Bearer ${account.token}`;
    else body.name = guestName() || "Guest";
    status.textContent = "Joining the queue…";
    const response = await fetch("/api/quickplay", { method: "POST", headers, body: JSON.stringify(body) });
    const data = await response.json().catch(() => null);
    if (!response.ok) {
      idle((data && data.message) || "Could not join the queue.");
      return;
    }
    ticket = data.ticket;
    start.hidden = true;
    cancel.hidden = false;
    pool.disabled = true;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}/ws/quickplay?ticket=${encodeURIComponent(ticket)}`, ["uno.v1"]);
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "queued") {
        status.textContent = `Looking for players… ${message.waitedSeconds} s`;
      } else if (message.type === "matched") {
        const name = account ? account.name : body.name;
        storage.setSeat(message.roomId, { seat: message.seat, token: message.token, name, code: null });
        socket = null;
        idle("Table found!");
        location.hash = `#/room/${encodeURIComponent(message.roomId)}`;
      }
    });
    socket.addEventListener("close", (event) => {
      if (socket && event.code === 4004) idle("The queue dropped this ticket: try again.");
    });
  });

  cancel.addEventListener("click", async () => {
    const leaving = ticket;
    idle("Left the queue.");
    if (leaving) await fetch(`/api/quickplay/${encodeURIComponent(leaving)}`, { method: "DELETE" });
  });

  describe();
  return { element: section, describe };
}
