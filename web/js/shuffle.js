// The verifiable shuffle, browser side (docs/fairness.md): contribute entropy to each deal
// before it is dealt, remember each deal's commitment from before it was dealt, and at
// the deal's end check that the revealed server seed is the one committed to.

const seen = new Map(); // `${room}:${deal}` -> the commitment shown before that deal
const sent = new Map(); // `${room}:${deal}` -> our contribution
const checks = new Map(); // `${room}:${deal}` -> {state, promise}

function key(view, deal) {
  return `${view.room?.id ?? ""}:${view.room?.matchId ?? "next"}:${deal}`;
}

function hexBytes(hex) {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i += 1) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

function toHex(buffer) {
  return [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Note commitments and send our contribution while the next deal's are open. */
export function followShuffle(view, send) {
  const shuffle = view?.shuffle;
  if (!shuffle) return;
  const next = shuffle.next;
  // Before the match the next deal's key has no match id yet: remember it by room too.
  if (next) seen.set(`${view.room?.id ?? ""}:pending:${next.deal}`, next.commitment);
  if (shuffle.deal && shuffle.commitment) {
    const k = key(view, shuffle.deal);
    if (!seen.has(k)) {
      const early = shuffle.deal === 1 ? seen.get(`${view.room?.id ?? ""}:pending:1`) : undefined;
      seen.set(k, early ?? shuffle.commitment);
    }
  }
  if (next && next.deal > 1) seen.set(key(view, next.deal), seen.get(key(view, next.deal)) ?? next.commitment);
  if (!next || view.you === null || view.you === undefined || next.entropy?.includes(view.you)) return;
  const k = `${view.room?.id ?? ""}:${view.room?.status}:${view.room?.matchId}:${next.deal}`;
  if (sent.has(k) || !globalThis.crypto?.getRandomValues) return;
  const value = toHex(crypto.getRandomValues(new Uint8Array(16)));
  sent.set(k, value);
  send({ type: "entropy", deal: next.deal, value });
}

/**
 * The check of the deal just ended: {state: "pending" | "verified" | "failed"}, and a
 * promise that settles once it is known.
 */
export function shuffleCheck(view) {
  const shuffle = view?.shuffle;
  const revealed = shuffle?.revealed;
  if (!revealed || !shuffle.deal) return null;
  const k = key(view, shuffle.deal);
  if (checks.has(k)) return checks.get(k);
  const committed = seen.get(k) ?? shuffle.commitment;
  const check = { state: "pending", promise: null };
  check.promise = (async () => {
    check.state = committed === shuffle.commitment ? await seedCheck(revealed.serverSeed, committed) : "failed";
    return check.state;
  })();
  checks.set(k, check);
  return check;
}

/**
 * Whether SHA-256 of the revealed server seed (hex) is `commitment`: "verified",
 * "failed", or "unavailable" (no Web Crypto: an insecure origin).
 */
export async function seedCheck(serverSeed, commitment) {
  try {
    const digest = toHex(await crypto.subtle.digest("SHA-256", hexBytes(serverSeed)));
    return digest === commitment ? "verified" : "failed";
  } catch {
    return "unavailable";
  }
}
