// A real server for the tests: `python -m app` of this repository on a free port, in a
// scratch directory (its SQLite file goes there), stopped when the test file ends.

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import WebSocket from "ws";
import { UnoClient } from "../src/index.js";

export const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const PYTHON = process.env.UNO_PYTHON || join(ROOT, ".venv/bin/python");

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

// Every socket a test opens, closed when its server stops: a failed test must not leave
// sessions reconnecting (and the test process running) for ever.
const opened = new Set();
class TestClient extends UnoClient {
  connect(...args) {
    return track(super.connect(...args));
  }
  watch(...args) {
    return track(super.watch(...args));
  }
  lobby(...args) {
    return track(super.lobby(...args));
  }
  tournament(...args) {
    return track(super.tournament(...args));
  }
  quickplayFeed(...args) {
    return track(super.quickplayFeed(...args));
  }
}
function track(socket) {
  opened.add(socket);
  return socket;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Start a server; resolves once /healthz answers 200. */
export async function startServer(env = {}) {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "uno-client-"));
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("UNO_")));
  const child = spawn(PYTHON, ["-m", "app", "--port", String(port)], {
    cwd: dir,
    env: {
      ...clean,
      PYTHONPATH: ROOT,
      // The tests make many rooms from one address.
      UNO_ROOM_CREATE_RATE: "10000/minute",
      UNO_REST_WRITE_RATE: "100000/minute",
      UNO_LOBBY_POLL_SECONDS: "0.1",
      UNO_TOURNAMENT_POLL_SECONDS: "0.1",
      ...env,
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  // A test process that ends, or is stopped, takes its server with it.
  const reap = () => child.kill("SIGTERM");
  const stopped = () => {
    reap();
    process.exit(1);
  };
  process.once("exit", reap);
  process.once("SIGTERM", stopped);
  process.once("SIGINT", stopped);
  let log = "";
  child.stderr.on("data", (chunk) => {
    log = (log + chunk).slice(-20000);
  });
  const base = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited:\n${log}`);
    try {
      const response = await fetch(`${base}/healthz`);
      if (response.status === 200) break;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  return {
    base,
    log: () => log,
    client: () => new TestClient({ baseUrl: base, WebSocket }),
    async stop() {
      for (const socket of opened) socket.close();
      opened.clear();
      process.off("exit", reap);
      process.off("SIGTERM", stopped);
      process.off("SIGINT", stopped);
      child.kill("SIGTERM");
      await new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once("exit", resolve)));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Until `predicate()` holds, checked after every event `type` of `emitter` (a test
 * that waits in vain fails after `ms`, saying what it waited for). */
export function until(emitter, type, predicate, ms = 30000) {
  return new Promise((resolve, reject) => {
    if (predicate()) return resolve();
    const timer = setTimeout(() => {
      off();
      reject(new Error(`no ${type} made ${predicate} hold`));
    }, ms);
    const off = emitter.on(type, () => {
      if (predicate()) {
        off();
        clearTimeout(timer);
        resolve();
      }
    });
  });
}

/** Until every session of `sessions` shows the same seq. */
export function inStep(sessions, ms = 30000) {
  const same = () => sessions.every((s) => s.seq !== null && s.seq === sessions[0].seq);
  return new Promise((resolve, reject) => {
    if (same()) return resolve();
    const offs = [];
    const stop = () => {
      clearTimeout(timer);
      for (const off of offs) off();
    };
    const timer = setTimeout(() => {
      stop();
      reject(new Error("the sessions never showed the same seq"));
    }, ms);
    for (const s of sessions) {
      offs.push(
        s.on("view", () => {
          if (same()) {
            stop();
            resolve();
          }
        }),
      );
    }
  });
}

/** The first message of a fresh socket of `path` (a room's: its snapshot). */
export function firstMessage(base, path) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(base.replace(/^http/, "ws") + path, ["uno.v1"]);
    ws.once("message", (data) => {
      resolve({ message: JSON.parse(String(data)), close: () => ws.close() });
    });
    ws.once("error", reject);
  });
}
