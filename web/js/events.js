// The event log: what happened, one line per event, in the current language.

import { cardName as nameNow, cardsName as namesNow, colorName, isWild } from "./cards.js";
import { h } from "./dom.js";
import { humanize, t } from "./i18n.js";

/**
 * The seats' names as they were when the event arrived (`_names`, see stamp.js): a seat
 * that has since left, or been renumbered, keeps the name it had.
 */
export function stampedContext(e, ctx) {
  const names = e._names;
  if (!names) return ctx;
  return {
    ...ctx,
    name: (seat) => {
      if (!Object.hasOwn(names, seat)) return ctx.name(seat);
      return seat === ctx.you ? ctx.name(seat) : names[seat];
    },
  };
}

/** One line for the event log, in the current language. */
export function describeEvent(e, ctx) {
  ctx = stampedContext(e, ctx);
  // Cards are named by the side that was up when the event happened (UNO Flip).
  const side = e._side ?? null;
  const cardName = (code) => nameNow(code, side);
  const cardsName = (codes) => namesNow(codes, side);
  const name = e.seat !== undefined && e.seat !== null ? ctx.name(e.seat) : "";
  const target = e.target !== undefined && e.target !== null ? ctx.name(e.target) : "";
  switch (e.type) {
    case "play": {
      const cards = cardsName(e.cards || (e.card ? [e.card] : []));
      const wild = (e.cards || []).some((c) => isWild(c, side));
      return wild && e.color
        ? t("event.playColor", { name, cards, color: colorName(e.color) })
        : t("event.play", { name, cards });
    }
    case "jumpIn": {
      if (!e.cards?.length) return t("event.jumpedIn", { name });
      const wild = e.cards.some((c) => isWild(c, side));
      const cards = cardsName(e.cards);
      return wild && e.color ? t("event.jumpInColor", { name, cards, color: colorName(e.color) }) : t("event.jumpIn", { name, cards });
    }
    case "draw":
      if (e.cards && e.seat === ctx.you) return t("event.drawYou", { cards: cardsName(e.cards) });
      if (e.reason && e.reason !== "draw") return t("event.penalty", { name, n: e.count });
      return t("event.draw", { name, n: e.count });
    case "pass":
      return t("event.pass", { name });
    case "skip":
      return t("event.skip", { name });
    case "reverse":
      return t("event.reverse");
    case "callUno":
      return t("event.callUno", { name });
    case "catchUno":
      return t("event.catchUno", { name, target });
    case "race": {
      // A claim window's outcome: who won, by how fast after each one's network delay.
      const won = (e.claims || []).find((c) => c.seat === e.winner) || {};
      return t("event.race", { name: ctx.name(e.winner), n: (e.claims || []).length, ms: won.reaction ?? "?", window: e.window ?? "?" });
    }
    case "entropy":
      return t("event.entropy", { name, n: e.deal ?? "" });
    case "challenge":
      if (e.guilty === true) return t("event.challengeGuilty", { name, target });
      if (e.guilty === false) return t("event.challengeInnocent", { name, target });
      return t("event.challenge", { name });
    case "chooseColor":
      return t("event.chooseColor", { name, color: colorName(e.color) });
    case "swapHands":
      return t("event.swap", { name, target });
    case "passHands":
    case "shuffleHands":
      return t("event.rotate");
    case "reshuffle":
      return t("event.reshuffle");
    case "deal":
      return t("event.deal", { n: e.deal ?? "" });
    case "firstCard":
      return t("event.firstCard", { cards: e.card ? cardName(e.card) : "" });
    case "dealOver":
      return t("event.dealOver", { name: ctx.name(e.winner) });
    case "matchOver":
      return t("event.matchOver");
    case "dealerDraw":
      return t("event.dealerDraw");
    case "knockedOut":
      return t("event.knockedOut", { names: (e.seats || []).map((s) => ctx.name(s)).join(", ") });
    case "firstCardReshuffled":
    case "firstCardBuried":
      return t("event.firstCardBack", { cards: e.card ? cardName(e.card) : "" });
    case "settings":
      return t("event.settings");
    case "flip":
      return t("event.flip", { name, side: t(`side.${e.side}`) });
    case "sip":
    case "sips":
      return t("event.sips", { name, n: e.count });
    case "timer":
      return e.action === "nextDeal" ? t("event.timerNextDeal") : humanize(e.type);
    case "join":
    case "joined":
    case "seat":
      return t("event.join", { name: e.name || name });
    case "leave":
    case "left":
      return t("event.leave", { name: e.name || name });
    case "kick":
    case "kicked":
      return t("event.kick", { name: e.name || name });
    case "connect":
    case "connected":
      return t("event.connect", { name });
    case "disconnect":
    case "disconnected":
      return t("event.disconnect", { name });
    case "start":
    case "started":
      return t("event.start");
    case "timeout":
      return t("event.timeout", { name });
    case "away":
      return t("event.away", { name });
    case "back":
      return t("event.back", { name });
    case "auto":
      return t(e.by === "bot" ? "event.autoBot" : "event.autoPilot", { name });
    case "host":
      return t("event.host", { name: e.name || name });
    case "clockResumed":
      return t("event.clockResumed", { name, s: Math.round((e.added || 0) / 1000) });
    case "matchEnded":
      return e.reason === "claim" ? t("event.claimed", { name: ctx.name(e.winner) }) : t("event.roomEmpty");
    case "roomEnded":
      return t("event.roomEmpty");
    case "unban":
      return t("event.unban", { name: e.name || "" });
    default: {
      // Events of variants without their own sentence: who did what, with which cards.
      const cards = e.cards || (e.card ? [e.card] : null);
      return [name, humanize(e.type || "?"), cards ? cardsName(cards) : ""].filter(Boolean).join(" · ");
    }
  }
}

// Spectators coming and going are not game news.
const QUIET = new Set(["watch", "unwatch", "watchers"]);
// How the table ran rather than what happened at it (a race's timings, the shuffle's
// contributions, which moves a bot or the autopilot made: the move itself has its own
// line): shown only in the log's details.
export const DETAIL_EVENTS = new Set(["race", "entropy", "auto"]);

/**
 * The events worth a line: without spectators' comings and goings, and without the
 * engine's second "called UNO" when a player called UNO and then played the card (the
 * engine confirms the call with the play; the player called once).
 */
export function loggedEvents(log, { details = true } = {}) {
  const out = [];
  const called = new Set(); // seats whose UNO call is waiting for its play
  let lastPlay = null;
  const joined = new Set(); // plays told already by their jump-in's line
  for (let i = 0; i < log.length; i += 1) {
    let e = log[i];
    if (QUIET.has(e.type) || joined.has(e)) continue;
    if (!details && DETAIL_EVENTS.has(e.type)) continue;
    if (e.type === "jumpIn" && !e.cards) {
      // The engine tells a jump-in, then the play it made: one line says both.
      const play = log.slice(i + 1).find((x) => x.type === "play" && x.seat === e.seat);
      if (play) {
        joined.add(play);
        e = { ...play, ...e, cards: play.cards || (play.card ? [play.card] : []), color: play.color };
      }
    }
    if (e.type === "callUno") {
      const confirming = lastPlay === e.seat;
      const repeat = confirming && called.has(e.seat);
      if (confirming) called.delete(e.seat);
      else called.add(e.seat);
      lastPlay = null;
      if (repeat) continue;
      out.push(e);
      continue;
    }
    if (e.type === "draw" || e.type === "pass") called.delete(e.seat);
    if (e.type === "play" || e.type === "jumpIn") {
      lastPlay = e.seat;
      out.push(e);
      continue;
    }
    lastPlay = null;
    out.push(e);
  }
  return out;
}

// Whether the log shows its details (for this page; off at first).
let detailed = false;

export function eventLog(log, ctx) {
  const list = h("ol", { class: "log-list", "data-testid": "log", reversed: true });
  const fill = () => {
    const shown = loggedEvents(log, { details: detailed }).slice(-40).reverse();
    list.replaceChildren(
      ...shown.map((e) =>
        h("li", { "data-type": e.type, class: DETAIL_EVENTS.has(e.type) ? "detail" : null }, [describeEvent(e, ctx)]),
      ),
    );
  };
  fill();
  const toggle = h(
    "button",
    {
      type: "button",
      class: "link",
      "data-testid": "log-details",
      "data-focus-key": "log-details",
      "aria-pressed": String(detailed),
      onClick: () => {
        detailed = !detailed;
        toggle.setAttribute("aria-pressed", String(detailed));
        toggle.textContent = t(detailed ? "table.logLessDetail" : "table.logDetails");
        fill();
      },
    },
    [t(detailed ? "table.logLessDetail" : "table.logDetails")],
  );
  return h("section", { class: "log panel", "aria-labelledby": "log-h" }, [
    h("div", { class: "panel-head" }, [h("h2", { id: "log-h" }, [t("table.log")]), toggle]),
    list,
  ]);
}
