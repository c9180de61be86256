// Four package sessions against a real server: a whole deal with sockets cut at random
// moments (each view equal to a fresh snapshot afterwards), a refused action, and an
// action retried over a reconnect that counts once.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { after, before, test } from "node:test";
import { complete, SocketError } from "../src/index.js";
import { firstMessage, inStep, startServer, until } from "./server.js";

let server;
before(async () => {
  server = await startServer();
});
after(async () => {
  await server?.stop();
});

const BOT = fileURLToPath(new URL("../examples/bot.js", import.meta.url));
const OVER = new Set(["dealOver", "matchOver"]);

// A small seeded generator (mulberry32): a failing run can be replayed.
function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function table(client, players, rules = { preset: "classic" }) {
  const room = await client.createRoom({ name: "table", rules, seats: players });
  const seats = [];
  for (let i = 0; i < players; i += 1) seats.push(await client.joinRoom(room.roomId, { name: `p${i}` }));
  await client.startRoom(room.roomId, room.hostToken);
  const sessions = seats.map((seat) => client.connect(room.roomId, seat.token));
  await Promise.all(sessions.map((s) => s.ready));
  return { room, seats, sessions };
}

// Every view a session showed, by seq, and a check that patches came in order: after a
// snapshot, each view is the next seq.
function record(session) {
  const views = new Map();
  const events = [];
  session.on("view", (view, evs, change) => {
    if (!change.snapshot) assert.equal(change.seq, change.previous.seq + 1, "a patch applied out of order");
    views.set(change.seq, view);
    events.push(...evs.map((e) => ({ ...e, seq: change.seq })));
  });
  return { views, events };
}

// What the seat on turn plays: a card when it can, else what else it may.
function choose(view, random) {
  const legal = view.legal || [];
  const plays = legal.filter((e) => e.type === "play" || e.type === "chooseColor");
  const pool = plays.length ? plays : legal.filter((e) => e.type === "draw" || e.type === "pass");
  const options = pool.length ? pool : legal;
  if (!options.length) return null;
  return complete(options[Math.floor(random() * options.length)], (xs) => xs[Math.floor(random() * xs.length)]);
}

async function freshSnapshot(session) {
  const path = `/ws/rooms/${session.roomId}?token=${session.token}`;
  const { message, close } = await firstMessage(server.base, path);
  assert.equal(message.type, "snapshot");
  return { ...message, close };
}

test("four sessions play a whole deal through cut sockets and each view equals a fresh snapshot", async () => {
  const client = server.client();
  const random = seeded(Number(process.env.UNO_TEST_SEED || 26));
  const { sessions } = await table(client, 4);
  const records = sessions.map(record);
  let cuts = 0;
  let acting = false;
  // A cut session, once back and caught up, shows what a fresh snapshot shows.
  const compare = async (i) => {
    const session = sessions[i];
    await until(session, "status", () => session.state === "online");
    await inStep(sessions);
    const fresh = await freshSnapshot(session);
    await until(session, "view", () => session.seq >= fresh.seq);
    assert.deepEqual(records[i].views.get(fresh.seq), fresh.view, `seat ${i}'s view differs from a snapshot`);
    fresh.close();
  };
  // One action at a time, from whoever is on turn, until the deal ends.
  const done = new Promise((resolve, reject) => {
    const step = async () => {
      if (acting) return;
      const view = sessions[0].view;
      if (OVER.has(view.phase)) return resolve();
      const mover = sessions.find((s) => s.view.turn === s.you && s.view.seq === view.seq);
      if (!mover) return;
      const action = choose(mover.view, random);
      if (!action) return;
      acting = true;
      try {
        // Now and then a socket is cut: the mover's (its action then goes out after the
        // reconnect) or another's (it resumes from its last seq).
        const cut = random() < 0.1 ? Math.floor(random() * sessions.length) : null;
        if (cut !== null) {
          sessions[cut].drop();
          cuts += 1;
        }
        await mover.act({ ...action, at: mover.view.moves });
        if (cut !== null) await compare(cut);
      } catch (err) {
        return reject(err);
      } finally {
        acting = false;
      }
      setImmediate(step);
    };
    for (const s of sessions) s.on("view", () => setImmediate(step));
    setImmediate(step);
  });
  await done;
  assert.ok(cuts > 0, "no socket was cut");
  assert.ok(sessions.some((s) => s.reconnects > 0));
  for (const i of sessions.keys()) await compare(i);
  for (const s of sessions) s.close();
});

test("an action the server refuses rejects with its code and changes nothing", async () => {
  const client = server.client();
  const { sessions } = await table(client, 2);
  const [a, b] = sessions;
  await inStep(sessions);
  const idle = a.view.turn === a.you ? b : a;
  const errors = [];
  idle.on("error", (err) => errors.push(err));
  const seq = idle.seq;
  await assert.rejects(idle.act({ type: "pass" }), (err) => {
    assert.ok(err instanceof SocketError);
    assert.equal(err.code, "not_your_turn");
    assert.ok(err.ref);
    return true;
  });
  assert.equal(idle.seq, seq);
  assert.deepEqual(
    errors.map((e) => e.code),
    ["not_your_turn"],
  );
  for (const s of sessions) s.close();
});

test("an action retried over a cut socket is applied once and a retry of its id gets the same ack", async () => {
  const client = server.client();
  const { sessions } = await table(client, 2);
  const [a, b] = sessions;
  await inStep(sessions);
  const mover = a.view.turn === a.you ? a : b;
  const other = mover === a ? b : a;
  const seen = record(other);
  const entry = mover.legal.find((e) => e.type === "draw" || e.type === "chooseColor");
  const action = complete(entry);
  // Sent, then the socket cut before the answer could come: the server may have it or
  // not; the reconnect sends it again with the same id.
  const answer = mover.act(action);
  mover.drop();
  const ack = await answer;
  assert.ok(mover.reconnects >= 1);
  await until(other, "view", () => other.seq >= ack.seq);
  const again = await mover.act(action, { id: ack.ref });
  assert.deepEqual(again, ack);
  const mine = seen.events.filter((e) => e.type === entry.type && e.seat === mover.you);
  assert.equal(mine.length, 1);
  // And one sent while the socket is down goes out once, after the reconnect.
  if (mover.view.turn === mover.you) {
    const next = mover.legal.find((e) => e.type === "pass" || e.type === "play");
    if (next) {
      mover.drop();
      const late = await mover.act(complete(next));
      await until(other, "view", () => other.seq >= late.seq);
      assert.equal(seen.events.filter((e) => e.seq === late.seq && e.type === next.type).length, 1);
    }
  }
  for (const s of sessions) s.close();
});

test("the example bot joins a room and plays until the match ends", async () => {
  const client = server.client();
  const rules = { preset: "classic", matchMode: "oneAndDone" };
  const room = await client.createRoom({ name: "bots", rules, seats: 2 });
  await client.addBot(room.roomId, "easy", room.hostToken);
  const bot = spawn(process.execPath, [BOT, server.base, room.roomId], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  bot.stdout.on("data", (chunk) => (output += chunk));
  bot.stderr.on("data", (chunk) => (output += chunk));
  const exited = new Promise((resolve) => bot.on("exit", resolve));
  const watcher = client.watch(room.roomId);
  await watcher.ready;
  await until(watcher, "view", () => watcher.view.players.length === 2);
  await client.startRoom(room.roomId, room.hostToken);
  assert.equal(await exited, 0, output);
  assert.match(output, /the match is over/);
  await until(watcher, "view", () => watcher.view.phase === "matchOver");
  watcher.close();
});
