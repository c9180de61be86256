// Accounts and quick play through the client against a real server: signing up, in and
// out, a refused sign-in's typed error, a quick-play ticket queued and left, four
// tickets seated at one table, and a finished match's ratings and replay frames.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { NotFoundError, UnauthorizedError } from "../src/index.js";
import { startServer, until } from "./server.js";

let server;
before(async () => {
  server = await startServer();
});
after(async () => {
  await server?.stop();
});

test("an account signs up, signs in, reads itself and signs out", async () => {
  const client = server.client();
  const made = await client.signUp("Annika", "a long password");
  assert.equal(made.name, "Annika");
  assert.equal(typeof made.token, "string");
  const account = await client.signIn("annika", "a long password");
  assert.equal(account.playerId, made.playerId);
  const me = await client.me(account.token);
  assert.equal(me.playerId, made.playerId);
  assert.equal(me.name, "Annika");
  assert.equal(await client.signOut(account.token), null);
  await assert.rejects(client.me(account.token), (err) => err instanceof UnauthorizedError);
  // The other session (the sign-up's) is still on.
  assert.equal((await client.me(made.token)).name, "Annika");
  assert.equal((await client.player("Annika")).name, "Annika");
  const board = await client.leaderboard({ pool: "classic", limit: 10 });
  assert.equal(board.pool, "classic");
  assert.ok(Array.isArray(board.players));
});

test("a wrong password is refused with account/bad_credentials", async () => {
  const client = server.client();
  await client.signUp("Bruno", "a long password");
  await assert.rejects(
    client.signIn("Bruno", "not the password"),
    (err) => err instanceof UnauthorizedError && err.status === 401 && err.code === "account/bad_credentials",
  );
  await assert.rejects(
    client.player("nobody-here"),
    (err) => err instanceof NotFoundError && err.code === "player_not_found",
  );
});

test("a quick-play ticket waits in the queue until it leaves", async () => {
  const client = server.client();
  const account = await client.signUp("Carla", "a long password");
  const { ticket } = await client.quickplay({ pool: "flip", token: account.token });
  const feed = client.quickplayFeed(ticket);
  const waits = [];
  feed.on("queued", (wait) => waits.push(wait));
  await until(feed, "queued", () => waits.length > 0);
  assert.equal(waits[0].searching, true);
  assert.equal(typeof waits[0].waitedSeconds, "number");
  assert.equal(await client.leaveQueue(ticket), null);
  await until(feed, "status", () => feed.state === "failed");
  await assert.rejects(feed.matched);
  await assert.rejects(client.leaveQueue(ticket), (err) => err instanceof NotFoundError && err.code === "quickplay/no_ticket");
});

test("four quick-play tickets of one pool are seated at one table", async () => {
  const client = server.client();
  const tickets = await Promise.all(
    ["Dora", "Emil", "Fynn", "Gert"].map((name) => client.quickplay({ pool: "classic", name })),
  );
  const feeds = tickets.map(({ ticket }) => client.quickplayFeed(ticket));
  const matches = await Promise.all(feeds.map((feed) => feed.matched));
  assert.equal(new Set(matches.map((m) => m.roomId)).size, 1);
  assert.deepEqual(
    matches.map((m) => m.seat).sort(),
    [0, 1, 2, 3],
  );
  for (const feed of feeds) assert.equal(feed.state, "closed");
  const session = client.connect(matches[0].roomId, matches[0].token);
  const view = await session.ready;
  assert.equal(view.you, matches[0].seat);
  session.close();
});

test("an account's seat is the account's, and a match whose opponent left is not rated", async () => {
  const client = server.client();
  const [hana, ivo] = await Promise.all([
    client.signUp("Hana", "a long password"),
    client.signUp("Ivo", "a long password"),
  ]);
  const room = await client.createRoom({ name: "rated", rules: { preset: "oneAndDone" }, seats: 2, rated: true });
  const first = await client.joinRoom(room.roomId, { name: "ignored" }, hana.token);
  assert.equal(first.playerId, hana.playerId);
  const second = await client.joinByCode({ name: "ignored", code: room.code }, ivo.token);
  assert.equal(second.playerId, ivo.playerId);
  const seats = (await client.getRoom(room.roomId)).players;
  assert.deepEqual(
    seats.map((p) => [p.name, p.rating]),
    [
      ["Hana", { value: 1500, provisional: true, games: 0 }],
      ["Ivo", { value: 1500, provisional: true, games: 0 }],
    ],
  );
  await client.startRoom(room.roomId, room.hostToken);
  const session = client.connect(room.roomId, first.token);
  await session.ready;
  // Ivo leaves; Hana claims the two-seat match and wins it. One account is left
  // playing, so the match is not rated: nobody gains from an opponent who left.
  await client.leaveRoom(room.roomId, second.token);
  await client.request("POST", `/api/rooms/${room.roomId}/claim`, { token: first.token });
  await until(session, "view", () => session.view?.phase === "matchOver");
  const matchId = session.view.room.matchId;
  session.close();
  let profile = await client.player("Hana");
  for (let i = 0; i < 200 && profile.stats.matches < 1; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    profile = await client.player("Hana");
  }
  assert.equal(profile.stats.matches, 1);
  assert.deepEqual(await client.matchRatings(matchId), { matchId, rated: false, seats: [] });
  assert.equal(profile.ratings.classic.games, 0);
  // The match is over and stored: its deal, frame by frame, every hand shown.
  const frames = await client.frames(matchId, 1);
  assert.equal(frames.matchId, matchId);
  assert.equal(frames.deal, 1);
  assert.deepEqual(frames.deals, [1]);
  assert.equal(frames.frames[0].index, 0);
  assert.equal(frames.frames[0].action, null);
  assert.equal(frames.frames[0].view.hands.length, 2);
  assert.deepEqual(frames.frames[0].view.hands.map((hand) => hand.length), [7, 7]);
  await assert.rejects(
    client.frames("no-such-match", 1),
    (err) => err instanceof NotFoundError && err.code === "match_not_found",
  );
  const none = await client.matchRatings("no-such-match");
  assert.deepEqual(none, { matchId: "no-such-match", rated: false, seats: [] });
});
