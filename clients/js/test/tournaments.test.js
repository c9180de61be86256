// A tournament's host console and its players through the client against a real server:
// listed, check-in opened and taken, started by the host's account, two players re-seated,
// paused and resumed, a player disqualified, one withdrawn and taken back, each table's
// result corrected, the next round seated once, and the end.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { ConflictError, ForbiddenError } from "../src/index.js";
import { startServer } from "./server.js";

let server;
before(async () => {
  server = await startServer();
});
after(async () => {
  await server?.stop();
});

const status = (tournament, playerId) => tournament.players.find((p) => p.playerId === playerId).status;

test("a host runs a tournament from check-in to its end, one method per host action", async () => {
  const client = server.client();
  const host = await client.signUp("Hilde", "a long password");
  const settings = { name: "Club cup", rules: { preset: "classic" }, tableSize: 3, rounds: 2, turnSeconds: 30 };
  const { tournamentId: id, hostToken } = await client.createTournament(settings, host.token);
  const listed = (await client.listTournaments()).find((t) => t.tournamentId === id);
  assert.equal(listed.hostAccount, host.playerId);
  const players = [];
  for (const name of ["Ada", "Bo", "Cy", "Di", "Ed", "Fay"]) players.push(await client.joinTournament(id, { name }));
  const [ada, bo, cy, di] = players;

  assert.equal((await client.openCheckIn(id, hostToken)).checkIn, true);
  for (const player of players) await client.checkIn(id, player.token);
  await assert.rejects(client.startTournament(id, ada.token), (err) => err instanceof ForbiddenError && err.code === "tournament/not_host");
  // The host's account hosts it too.
  let tour = await client.startTournament(id, host.token);
  assert.deepEqual([tour.status, tour.round], ["running", 1]);

  const [first, second] = tour.roundLog[0].tables;
  tour = await client.reseat(id, first.players[0], second.players[0], hostToken);
  const moved = tour.roundLog[0].tables;
  assert.ok(moved[0].players.includes(second.players[0]) && moved[1].players.includes(first.players[0]));

  assert.equal((await client.pauseTournament(id, hostToken)).paused, true);
  assert.equal((await client.resumeTournament(id, hostToken)).paused, false);

  tour = await client.disqualify(id, di.playerId, "left the venue", hostToken);
  assert.equal(status(tour, di.playerId), "disqualified");
  assert.equal(status(await client.withdraw(id, bo.token), bo.playerId), "withdrawn");
  assert.equal(status(await client.reinstate(id, bo.playerId, hostToken), bo.playerId), "active");

  for (const table of tour.roundLog[0].tables) {
    const result = table.players.map((playerId, i) => ({ playerId, place: i + 1 }));
    tour = await client.correctResult(id, table.tableId, { result, reason: "as reported" }, hostToken);
  }
  assert.ok(tour.roundLog[0].tables.every((table) => table.result));
  assert.equal((await client.nextRound(id, 2, hostToken)).round, 2);
  await assert.rejects(
    client.nextRound(id, 2, hostToken),
    (err) => err instanceof ConflictError && err.code === "tournament/round_started",
  );
  tour = await client.endTournament(id, hostToken);
  assert.equal(tour.status, "over");
  assert.deepEqual(
    tour.audit.map((entry) => entry.action).filter((a) => a !== "withdrawn"),
    ["checkIn", "start", "reseat", "pause", "resume", "disqualify", "reinstate", "correct", "correct", "round", "end"],
  );
  assert.ok([ada, cy].every((p) => status(tour, p.playerId) === "active"));
});
