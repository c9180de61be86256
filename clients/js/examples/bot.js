// A bot: joins a room, then plays from `view.legal` until the match ends.
//   node examples/bot.js http://127.0.0.1:8000 ROOM_ID [NAME]
// The room's host starts it (or it already runs, with a free seat). Node 20 has no
// global WebSocket: the `ws` package's is passed in.

import WebSocket from "ws";
import { complete, UnoClient } from "uno-client";

const [baseUrl, roomId, name = "bot"] = process.argv.slice(2);
if (!baseUrl || !roomId) {
  console.error("usage: node examples/bot.js BASE_URL ROOM_ID [NAME]");
  process.exit(2);
}

const client = new UnoClient({ baseUrl, WebSocket });
const { seat, token } = await client.joinRoom(roomId, { name });
console.log(`seated at ${seat}`);
const session = client.connect(roomId, token);
let busy = false;

/** @param {import("uno-client").View} view */
async function move(view) {
  if (busy || view.you !== view.turn || !view.legal?.length) return;
  // A card if one may be played, else whatever else is on offer (draw, pass, ...).
  const plays = view.legal.filter((entry) => entry.type === "play");
  const entry = (plays.length ? plays : view.legal)[0];
  busy = true;
  try {
    // `at`: the position this answers, so that a move overtaken by the table is refused.
    await session.act({ ...complete(entry), at: "moves" in view ? view.moves : undefined });
  } catch (err) {
    console.error("refused:", /** @type {any} */ (err).code);
  } finally {
    busy = false;
  }
  if (session.view) move(session.view);
}

session.on("view", (view) => {
  if (view.phase === "matchOver") {
    console.log("the match is over");
    session.close();
  } else if (view.phase === "dealOver") {
    session.act({ type: "nextDeal" }).catch(() => {}); // any seat may deal the next
  } else {
    move(view);
  }
});
session.on("error", (err) => console.error(`error ${err.code}: ${err.message}`));
await session.ready;
