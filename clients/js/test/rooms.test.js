// A room's host and seats through the client against a real server: the room found by its
// code, its settings changed, a seat muted and kicked, a seat back from away and a win
// claimed; and the reference tables (rules, cards, drinks).

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { ConflictError, ForbiddenError, NotFoundError, UnauthorizedError } from "../src/index.js";
import { startServer, until } from "./server.js";

let server;
before(async () => {
  server = await startServer();
});
after(async () => {
  await server?.stop();
});

test("the host finds the room by its code, changes its settings, mutes a seat and kicks it", async () => {
  const client = server.client();
  const room = await client.createRoom({ name: "hosted", rules: { preset: "classic" }, seats: 3 });
  assert.equal((await client.roomByCode(room.code.toLowerCase())).roomId, room.roomId);
  await assert.rejects(client.roomByCode("NOPE99"), (err) => err instanceof NotFoundError && err.code === "bad_code");
  const changed = await client.changeSettings(room.roomId, { name: "renamed", seats: 4 }, room.hostToken);
  assert.deepEqual([changed.name, changed.seats], ["renamed", 4]);
  await assert.rejects(
    client.changeSettings(room.roomId, { name: "mine" }),
    (err) => err instanceof UnauthorizedError && err.code === "missing_token",
  );
  const anna = await client.joinRoom(room.roomId, { name: "Anna" });
  await client.joinRoom(room.roomId, { name: "Ben" });
  assert.equal(await client.muteSeat(room.roomId, 1, true, room.hostToken), null);
  const session = client.connect(room.roomId, anna.token);
  assert.deepEqual((await session.ready).room.muted, [1]);
  assert.equal(await client.muteSeat(room.roomId, 1, false, room.hostToken), null);
  await until(session, "view", () => session.view.room.muted.length === 0);
  session.close();
  assert.equal(await client.kick(room.roomId, 1, room.hostToken), null);
  const shown = await client.getRoom(room.roomId);
  assert.deepEqual(shown.players.map((p) => p.name), ["Anna"]);
  assert.deepEqual(shown.bans, ["Ben"]);
  await assert.rejects(
    client.joinRoom(room.roomId, { name: "Ben" }),
    (err) => err instanceof ForbiddenError && err.code === "banned",
  );
});

test("an away seat comes back, and of two seats the one left claims the win", async () => {
  const client = server.client();
  const room = await client.createRoom({ name: "two", rules: { preset: "classic" }, seats: 2, absentAfter: 5 });
  const [anna, ben] = [await client.joinRoom(room.roomId, { name: "Anna" }), await client.joinRoom(room.roomId, { name: "Ben" })];
  await client.startRoom(room.roomId, room.hostToken);
  const session = client.connect(room.roomId, anna.token);
  await session.ready;
  await assert.rejects(client.claimWin(room.roomId, anna.token), (err) => err instanceof ConflictError && err.code === "cannot_claim");
  // Ben's socket closes: absentAfter later the autopilot takes his seat.
  const gone = client.connect(room.roomId, ben.token);
  await gone.ready;
  gone.close();
  await until(session, "view", () => session.view.players[1].away);
  assert.equal(await client.backToSeat(room.roomId, ben.token), null);
  await until(session, "view", () => !session.view.players[1].away);
  await assert.rejects(client.backToSeat(room.roomId, anna.token), (err) => err instanceof ConflictError && err.code === "not_away");
  await client.leaveRoom(room.roomId, ben.token);
  assert.equal(await client.claimWin(room.roomId, anna.token), null);
  await until(session, "view", () => session.view.phase === "matchOver");
  assert.equal(session.view.winner, 0);
  assert.equal(session.view.room.ended.reason, "claim");
  session.close();
});

test("the reference tables: every rule option and preset, every card, the beverages", async () => {
  const client = server.client();
  const rules = await client.rules();
  assert.ok(rules.options.some((o) => o.name === "stacking"));
  assert.ok("classic" in rules.presets);
  assert.deepEqual(rules.botLevels, ["easy", "normal", "hard"]);
  const cards = await client.cards();
  assert.equal(cards.decks.find((d) => d.name === "classic108").size, 108);
  const drinks = await client.drinks();
  assert.ok(drinks.beverages.length > 0);
  assert.equal(typeof drinks.shot.volumeCl, "number");
});
