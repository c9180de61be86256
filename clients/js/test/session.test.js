// A RoomSession fed messages by hand (no socket): patches are applied once each, in seq
// order, whatever order they come in; an act resolves once its change is in the view.

import assert from "node:assert/strict";
import { test } from "node:test";
import { RoomSession, UnoClient } from "../src/index.js";

// Never opened: these sessions are only fed with `handle`.
class Unopened {}
const client = new UnoClient({ baseUrl: "http://127.0.0.1:1", WebSocket: Unopened });

const patch = (seq, n, extra = {}) => ({
  type: "patch",
  seq,
  ts: 0,
  ops: [
    { op: "replace", path: "/n", value: n },
    { op: "replace", path: "/seq", value: seq },
  ],
  events: [{ type: "draw", seat: 0, n }],
  ...extra,
});

test("patches are applied once each in seq order, whatever order they arrive in", () => {
  const session = new RoomSession(client, "room", null);
  const seen = [];
  session.on("view", (view, events, change) => seen.push([change.seq, view.n, events.length, change.snapshot]));
  session.handle({ type: "snapshot", seq: 5, ts: 0, view: { n: 0, seq: 5 } });
  session.handle(patch(7, 2)); // early: waits for 6
  session.handle(patch(5, 9)); // already in the snapshot
  assert.equal(session.view.n, 0);
  session.handle(patch(6, 1));
  session.handle(patch(6, 1)); // a repeat
  assert.deepEqual(seen, [
    [5, 0, 0, true],
    [6, 1, 1, false],
    [7, 2, 1, false],
  ]);
  assert.deepEqual(session.view, { n: 2, seq: 7 });
  session.close();
});

test("each view is a new object and the one before is left as it was", () => {
  const session = new RoomSession(client, "room", null);
  session.handle({ type: "snapshot", seq: 1, ts: 0, view: { n: 0, seq: 1 } });
  const first = session.view;
  let previous = null;
  session.on("view", (_view, _events, change) => (previous = change.previous));
  session.handle(patch(2, 1));
  assert.notEqual(session.view, first);
  assert.equal(previous, first);
  assert.deepEqual(first, { n: 0, seq: 1 });
  session.close();
});

test("an action resolves on its ack once the view includes its change", async () => {
  const session = new RoomSession(client, "room", "token");
  session.handle({ type: "snapshot", seq: 1, ts: 0, view: { n: 0, seq: 1 } });
  const sent = session.act({ type: "draw" }, { id: "a1" });
  // The ack frame first (a writer on another node), its patch after.
  session.handle({ type: "ack", ref: "a1", seq: 2 });
  let settled = false;
  sent.then(() => (settled = true));
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(settled, false);
  session.handle(patch(2, 1));
  assert.deepEqual(await sent, { ref: "a1", seq: 2 });
  assert.equal(session.seq, 2);
  const refused = session.act({ type: "pass" }, { id: "a2" });
  session.handle({ type: "error", ref: "a2", code: "not_your_turn", message: "wait" });
  await assert.rejects(refused, { name: "SocketError", code: "not_your_turn", ref: "a2" });
  const pending = session.act({ type: "pass" }, { id: "a3" });
  session.close();
  await assert.rejects(pending, { code: "closed" });
});
