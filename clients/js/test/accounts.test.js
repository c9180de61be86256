// Accounts and quick play through the client against a real server: signing up, in and
// out, a refused sign-in's typed error, a quick-play ticket queued and left, four
// tickets seated at one table, and a finished match's ratings and replay frames.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { complete, NotFoundError, UnauthorizedError } from "../src/index.js";
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

// Play the session's seat to the match's end as its player would: a card when one may be
// played, else whatever else is on offer (draw, pass, ...).
function playToTheEnd(session) {
  let busy = false;
  const move = async () => {
    const view = session.view;
    if (busy || view.phase === "matchOver" || view.turn !== view.you) return;
    const moves = (view.legal || []).filter((e) => e.type !== "callUno" && e.type !== "catchUno");
    const plays = moves.filter((e) => e.type === "play");
    if (!moves.length) return;
    busy = true;
    try {
      await session.act({ ...complete((plays.length ? plays : moves)[0]), at: view.moves });
    } catch {
      // Overtaken by the table: the next view decides again.
    } finally {
      busy = false;
    }
    move();
  };
  session.on("view", move);
  move();
  return until(session, "view", () => session.view.phase === "matchOver");
}

test("an account's seat is the account's, and a rated match's changes read by matchRatings", async () => {
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
  // Both accounts play the match to its end: both still playing, so it is rated.
  const sessions = [first, second].map((seat) => client.connect(room.roomId, seat.token));
  await Promise.all(sessions.map((session) => session.ready));
  await Promise.all(sessions.map(playToTheEnd));
  const matchId = sessions[0].view.room.matchId;
  for (const session of sessions) session.close();
  let changes = await client.matchRatings(matchId);
  for (let i = 0; i < 200 && !changes.rated; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    changes = await client.matchRatings(matchId);
  }
  assert.equal(changes.rated, true);
  assert.deepEqual(
    changes.seats.map((s) => [s.seat, s.ratingBefore, s.games, s.provisional]),
    [
      [0, 1500, 1, true],
      [1, 1500, 1, true],
    ],
  );
  const [winner, loser] = [...changes.seats].sort((a, b) => a.place - b.place);
  assert.deepEqual([winner.place, loser.place], [1, 2]);
  assert.ok(winner.ratingAfter > 1500 && loser.ratingAfter < 1500);
  assert.equal((await client.player("Hana")).ratings.classic.games, 1);
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
