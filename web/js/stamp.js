// What an event meant when it happened: the log is drawn again on every change, and by
// then a UNO Flip deck may show its other side and seats may have other players (or
// none). So each event carries, from the moment it arrived, the side in play (`_side`)
// and the names of the seats it mentions (`_names`).

import { t } from "./i18n.js";

const SEAT_FIELDS = ["seat", "target", "winner"];

// A seat whose player left is played by a bot from then on: its moves are the bot's.
function namesOf(view) {
  const out = {};
  for (const p of view?.players || []) {
    if (p && p.name) out[p.seat] = p.left ? t("table.botFor", { name: p.name }) : p.name;
  }
  return out;
}

/**
 * Stamp `events` (one change's, in order) with the table they happened on: `before` is
 * the view they were played on, `after` the view they led to. A Flip event turns the side
 * for the events after it.
 */
export function stampEvents(events, before, after) {
  let side = before?.side ?? after?.side ?? null;
  const known = { ...namesOf(after), ...namesOf(before) };
  return events.map((e) => {
    const names = {};
    for (const field of SEAT_FIELDS) {
      const seat = e[field];
      if (seat !== undefined && seat !== null && known[seat] !== undefined) names[seat] = known[seat];
    }
    for (const seat of e.seats || []) if (known[seat] !== undefined) names[seat] = known[seat];
    const stamped = { ...e, _names: { ...names, ...(e._names || {}) } };
    if (e._side === undefined) stamped._side = side;
    if (e.type === "flip" && e.side) side = e.side;
    return stamped;
  });
}
