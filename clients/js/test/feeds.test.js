// The read-only sockets against a real server: the lobby's pushed room list, a
// spectator's session, a tournament's live feed; and REST refusals as typed errors.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import {
  ConflictError,
  InvalidRequestError,
  NotFoundError,
  SocketError,
  UnauthorizedError,
} from "../src/index.js";
import { startServer, until } from "./server.js";

let server;
before(async () => {
  server = await startServer();
});
after(async () => {
  await server?.stop();
});

test("the lobby pushes a room as it opens, fills and starts", async () => {
  const client = server.client();
  const lobby = client.lobby();
  await lobby.ready;
  const pushes = [];
  lobby.on("rooms", (rooms, changes) => pushes.push(changes));
  const room = await client.createRoom({ name: "pushed", rules: { preset: "classic" }, seats: 2 });
  const listed = () => lobby.rooms.find((r) => r.roomId === room.roomId);
  await until(lobby, "rooms", () => listed() !== undefined);
  assert.equal(listed().name, "pushed");
  await client.joinRoom(room.roomId, { name: "Anna" });
  await until(lobby, "rooms", () => listed()?.players?.length === 1);
  await client.joinRoom(room.roomId, { name: "Ben" });
  await until(lobby, "rooms", () => listed() === undefined);
  const removal = pushes.flat().find((c) => c?.op === "remove" && c.roomId === room.roomId);
  assert.equal(removal.reason, "full");
  // A dropped lobby socket resumes (or takes a fresh snapshot) and misses nothing.
  lobby.drop();
  const other = await client.createRoom({ name: "while away", rules: { preset: "classic" }, seats: 2 });
  await until(lobby, "rooms", () => lobby.rooms.some((r) => r.roomId === other.roomId));
  assert.deepEqual(
    lobby.rooms.map((r) => r.roomId),
    (await client.listRooms()).map((r) => r.roomId),
  );
  lobby.close();
});

test("the lobby moves a room that starts from the open rooms to the running games", async () => {
  const client = server.client();
  const lobby = client.lobby();
  await lobby.ready;
  const room = await client.createRoom({ name: "starting", rules: { preset: "classic" }, seats: 3 });
  await client.joinRoom(room.roomId, { name: "Anna" });
  await client.joinRoom(room.roomId, { name: "Ben" });
  const open = () => lobby.rooms.some((r) => r.roomId === room.roomId);
  const running = () => lobby.playing.find((r) => r.roomId === room.roomId);
  await until(lobby, "lobby", () => open() && !running());
  assert.equal(lobby.live, true);
  // Each message leaves the lists consistent: the room is never in both, nor lost
  // between them once the start is pushed.
  const seen = [];
  lobby.on("lobby", (rooms, playing) => {
    seen.push({ open: rooms.some((r) => r.roomId === room.roomId), running: playing.some((r) => r.roomId === room.roomId) });
  });
  const playingChanges = [];
  lobby.on("playing", (playing, changes) => playingChanges.push(...(changes || [])));
  await client.startRoom(room.roomId, room.hostToken);
  await until(lobby, "lobby", () => running() !== undefined);
  assert.ok(!open());
  assert.deepEqual(seen.at(-1), { open: false, running: true });
  assert.ok(seen.every((s) => !(s.open && s.running)));
  assert.deepEqual(
    running().players.map((p) => p.name),
    ["Anna", "Ben"],
  );
  assert.ok(playingChanges.some((c) => c.op === "add" && c.roomId === room.roomId));
  // A dropped socket comes back with both lists as REST lists them.
  lobby.drop();
  await until(lobby, "status", () => !lobby.live);
  await until(lobby, "lobby", () => lobby.live);
  const [rooms, playing] = await Promise.all([client.listRooms(), client.listRooms("playing")]);
  assert.deepEqual(
    lobby.playing.map((r) => r.roomId),
    playing.map((r) => r.roomId),
  );
  assert.deepEqual(
    lobby.rooms.map((r) => r.roomId),
    rooms.map((r) => r.roomId),
  );
  lobby.close();
  assert.equal(lobby.live, false);
});

test("a spectator follows the table without hands and may not act", async () => {
  const client = server.client();
  const room = await client.createRoom({ name: "watched", rules: { preset: "classic" }, seats: 2 });
  const seats = [await client.joinRoom(room.roomId, { name: "A" }), await client.joinRoom(room.roomId, { name: "B" })];
  await client.startRoom(room.roomId, room.hostToken);
  const players = seats.map((s) => client.connect(room.roomId, s.token));
  await Promise.all(players.map((p) => p.ready));
  const watcher = client.watch(room.roomId);
  const view = await watcher.ready;
  assert.equal(watcher.you, null);
  assert.ok(!view.hand || view.hand.length === 0);
  const mover = players.find((p) => p.view.turn === p.you);
  const entry = mover.legal.find((e) => e.type === "draw" || e.type === "chooseColor");
  const ack = await mover.act(entry.type === "draw" ? { type: "draw" } : { type: "chooseColor", color: "R" });
  await until(watcher, "view", () => watcher.seq >= ack.seq);
  assert.equal(watcher.view.players[mover.you].cards, mover.view.hand.length);
  await assert.rejects(watcher.act({ type: "draw" }), (err) => err instanceof SocketError && err.code === "spectator");
  for (const s of [...players, watcher]) s.close();
});

test("a session the server refuses fails with the refusal's code", async () => {
  const client = server.client();
  const room = await client.createRoom({ name: "refusing", rules: { preset: "classic" }, seats: 2 });
  const bad = client.connect(room.roomId, "not-a-token");
  await assert.rejects(bad.ready, (err) => err instanceof SocketError && err.code === "bad_token" && err.closeCode === 4401);
  assert.equal(bad.state, "failed");
  const gone = client.watch("no-such-room");
  await assert.rejects(gone.ready, (err) => err.code === "room_not_found");
});

test("a tournament's feed pushes its events and standings", async () => {
  const client = server.client();
  const { tournamentId } = await client.createTournament({
    name: "Cup",
    rules: { preset: "classic" },
    rounds: 1,
    turnSeconds: 30,
  });
  const feed = client.tournament(tournamentId);
  const tournament = await feed.ready;
  assert.equal(tournament.name, "Cup");
  const events = [];
  feed.on("event", (event) => events.push(event));
  await client.joinTournament(tournamentId, { name: "Anna" });
  await until(feed, "event", () => events.some((e) => e.type === "registered"));
  assert.equal(events.find((e) => e.type === "registered").name, "Anna");
  feed.close();
});

test("every REST refusal is a typed error with the server's code", async () => {
  const client = server.client();
  await assert.rejects(client.getRoom("no-such-room"), (err) => err instanceof NotFoundError && err.code === "room_not_found");
  const room = await client.createRoom({ name: "small", rules: { preset: "classic" }, seats: 2 });
  await assert.rejects(client.startRoom(room.roomId), (err) => err instanceof UnauthorizedError && err.status === 401);
  await client.joinRoom(room.roomId, { name: "A" });
  await client.joinRoom(room.roomId, { name: "B" });
  await assert.rejects(client.joinRoom(room.roomId, { name: "C" }), (err) => err instanceof ConflictError && err.code === "room_full");
  await assert.rejects(
    client.createRoom({ name: "x", rules: { preset: "classic" }, seats: 99 }),
    (err) => err instanceof InvalidRequestError && err.code === "invalid_request" && err.errors.length > 0,
  );
});
