// The table: drawn entirely from the latest view (docs/protocol.md) on every change.
//
// Nothing here decides what is legal: the server lists this seat's legal actions in
// `view.legal`, and the table only highlights them. Buttons for actions that are not
// legal stay enabled and still send: the server then refuses and the
// player learns why, which is clearer than a button that silently does nothing. They are
// marked with data-enabled="false" and dimmed, not aria-disabled, because a disabled
// control may not be activated at all.

import {
  cardBack,
  cardFace,
  cardName,
  cardsName,
  colorName,
  parseCard,
  setSide,
  wildColors,
} from "./cards.js";
import { h } from "./dom.js";
import { drinksGuide, sipsBadge } from "./drinks.js";
import { eventLog } from "./events.js";
import { has, humanize, t } from "./i18n.js";
import { matchScoreboard, summary } from "./summary.js";
import { rulesSummary } from "./rules.js";
import { renderBottle } from "./bottle.js";
import { renderRommy } from "./rommy.js";

export const GAME_PHASES = new Set(["draft", "chooseColor", "playing", "dealOver", "matchOver"]);
/** What the view says this seat may do, in handy form. */
export function legalInfo(view) {
  const legal = view?.legal || [];
  const plays = legal.filter((a) => a.type === "play" && a.cards?.length);
  return {
    has: (type) => legal.some((a) => a.type === type),
    playable: new Set(plays.map((a) => a.cards[0])),
    catchTarget: legal.find((a) => a.type === "catchUno")?.target ?? null,
    myTurn: view?.you !== null && view?.you !== undefined && view.turn === view.you,
  };
}

/**
 * What clicking `code` in the hand should send: {action, needs}, where `needs` is what
 * the server's `legal` entry for the card says the client must add: "color" (with the
 * `colors` to offer), "target" (with the `targets`), "companions" (the other cards of the
 * group plays listed for it, under multiPlay), or null. Nothing is derived from the
 * rules here. An unplayable card is still sent as it is, so the server says why not.
 */
export function planPlay(view, code) {
  const action = { type: "play", cards: [code] };
  // An out-of-turn play is a jump-in: tell the server which table state we saw, so one
  // that lost a race is refused as too late instead of landing on a different card.
  if (view.turn !== view.you && view.moves !== undefined && view.moves !== null) {
    action.at = view.moves;
  }
  const starts = (view.legal || []).filter((a) => a.type === "play" && a.cards?.[0] === code);
  const single = starts.find((a) => a.cards.length === 1);
  const needs = single?.needs || [];
  if (needs.includes("color")) return { action, needs: "color", colors: single.colors };
  if (needs.includes("target")) return { action, needs: "target", targets: single.targets };
  if (starts.length && view.dumpColor && view.turn === view.you) {
    // UNO Duo's dump after a Reverse is all or nothing: `legal` lists it as one play of
    // every card of that colour (with the UNO call when it empties the hand).
    const dump = starts.reduce((a, b) => (b.cards.length > a.cards.length ? b : a));
    if (dump.cards.length > 1) {
      action.cards = [...dump.cards];
      if (dump.uno) action.uno = true;
    }
    return { action, needs: null };
  }
  if (view.turn === view.you) {
    const companions = companionsOf(starts);
    if (companions.length) return { action, needs: "companions", companions };
  }
  return { action, needs: null };
}

/**
 * Under multiPlay, the cards that may follow a card in the same play: the rest of the
 * largest group play `legal` lists starting with it (`starts`). The server judges the
 * combination.
 */
export function companionsOf(starts) {
  const groups = starts.filter((a) => a.cards.length > 1);
  if (!groups.length) return [];
  return groups.reduce((a, b) => (b.cards.length > a.cards.length ? b : a)).cards.slice(1);
}

/** A button label for a legal action of a variant: its name, cards, colour and target. */
function actionLabel(a, ctx) {
  const parts = [has(`action.${a.type}`) ? t(`action.${a.type}`) : humanize(a.type)];
  if (a.cards?.length) parts.push(cardsName(a.cards));
  if (a.color) parts.push(colorName(a.color));
  if (a.target !== undefined && a.target !== null) parts.push(ctx.name(a.target));
  return parts.join(" · ");
}

function countText(n) {
  return n === 1 ? t("table.card1") : t("table.cards", { n });
}

/** Seats in play order starting after `you` (spectators: from seat 0). */
function othersInOrder(view) {
  const players = view.players || [];
  if (view.you === null || view.you === undefined) return players;
  const n = players.length;
  const out = [];
  for (let i = 1; i < n; i += 1) out.push(players[(view.you + i) % n]);
  return out;
}

/**
 * A seat's room marks: bot, left, away, when a closed seat goes to the autopilot ("away
 * in N s", from `awayAt`), and the countdown of its decision.
 */
export function seatBadges(view, p) {
  const out = [];
  if (p.left) out.push(h("span", { class: "badge", "data-testid": "left" }, [t("table.left")]));
  else if (p.bot) out.push(h("span", { class: "badge", "data-testid": "bot" }, [t("table.bot")]));
  if (p.away) out.push(h("span", { class: "badge warn", "data-testid": "away" }, [t("table.away")]));
  const playing = GAME_PHASES.has(view.phase);
  if (p.awayAt && playing) out.push(ticking("badge warn", "away-in", { awayAt: p.awayAt }));
  const timed = view.deadline && view.deadlineSeat === p.seat && playing;
  if (timed) {
    // The table moves at the deadline, or sooner when the autopilot takes the seat over.
    const moves = p.awayAt && p.awayAt < view.deadline ? p.awayAt : view.deadline;
    const bankFrom = moves === view.deadline ? view.bankFrom : null;
    out.push(ticking("badge countdown", "countdown", { deadline: moves, bankFrom: bankFrom ?? "" }));
  }
  return out;
}

// A badge whose text follows the clock: room.js redraws every `[data-tick]` twice a
// second with tickText, without redrawing the table.
function ticking(cls, testid, times) {
  const el = h("span", { class: cls, "data-testid": testid, dataset: { tick: testid, ...times } });
  el.textContent = tickText(el.dataset);
  return el;
}

export function secondsLeft(deadline) {
  return Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
}

/**
 * A ticking badge's text: "away in 12 s"; a decision's "12 s + bank 30 s" while its turn
 * time runs, "bank 25 s" once the bank does, else "12 s".
 */
export function tickText(data) {
  if (data.tick === "away-in") return t("table.awayIn", { s: secondsLeft(Number(data.awayAt)) });
  const deadline = Number(data.deadline);
  const bankFrom = data.bankFrom ? Number(data.bankFrom) : null;
  if (bankFrom === null || bankFrom >= deadline) return t("table.countdown", { s: secondsLeft(deadline) });
  if (Date.now() < bankFrom) {
    return t("table.countdownBank", { s: secondsLeft(bankFrom), bank: Math.round((deadline - bankFrom) / 1000) });
  }
  return t("table.bankLeft", { s: secondsLeft(deadline) });
}

/** Whether `seat` shows as having called UNO: the engine's `view.unoCalled` says so. */
export function calledUno(view, seat) {
  return view.unoCalled.includes(seat);
}

function unoBadge(view, seat) {
  return calledUno(view, seat) ? h("span", { class: "badge uno", "data-testid": "uno-called" }, [t("table.unoCalled")]) : null;
}

/** "Leave the table": kept apart from the hand's buttons (a bot plays on; room.js asks first). */
function leaveLink(view, ctx, done) {
  const me = view.players?.find((p) => p.seat === view.you);
  if (!me || !ctx.leaveMatch || done) return null;
  return h("div", { class: "panel leave-panel" }, [
    h("button", { type: "button", class: "link danger", "data-testid": "leave-match", onClick: ctx.leaveMatch }, [
      t("table.leaveMatch"),
    ]),
  ]);
}

function seatActions(view, ctx, done) {
  const me = view.players?.find((p) => p.seat === view.you);
  if (!me || !ctx.back) return [];
  const out = [...seatBadges(view, me)];
  if (me.away) {
    out.push(
      h("span", { class: "away-note", role: "status" }, [t("table.youAway")]),
      h("button", { type: "button", class: "primary", "data-testid": "im-back", onClick: ctx.back }, [
        t("table.imBack"),
      ]),
    );
  }
  const others = (view.players || []).filter((p) => p.seat !== view.you);
  if (!done && !me.away && others.length === 1 && (others[0].away || others[0].left)) {
    out.push(h("button", { type: "button", "data-testid": "claim", onClick: ctx.claim }, [t("table.claim")]));
  }
  return out;
}

// blitzSeconds: the seat's match clock (ms left, as the last change left it), m:ss.
function clockText(ms) {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `\u23F1 ${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

function playerChip(view, p, ctx, info) {
  const isTurn = view.turn === p.seat && view.phase === "playing";
  const online = p.connected !== false;
  const backs = Math.min(p.cards ?? 0, 8);
  const catchable = info.catchTarget === p.seat;
  return h(
    "li",
    {
      class: `player${isTurn ? " turn" : ""}${online ? "" : " offline"}${p.out ? " out" : ""}`,
      "data-testid": "player",
      "data-seat": p.seat,
      "aria-current": isTurn ? "true" : null,
    },
    [
      h("div", { class: "player-head" }, [
        h("span", {
          class: `dot ${online ? "on" : "off"}`,
          role: "img",
          "aria-label": online ? t("table.connected") : t("table.disconnected"),
        }),
        h("strong", { class: "player-name" }, [ctx.name(p.seat)]),
        view.dealer === p.seat ? h("span", { class: "badge" }, [t("table.dealer")]) : null,
        p.out && !p.place ? h("span", { class: "badge" }, [t("table.out")]) : null,
        p.place ? h("span", { class: "badge", "data-testid": "place" }, [t("table.place", { n: p.place })]) : null,
        ...seatBadges(view, p),
        unoBadge(view, p.seat),
      ]),
      h("div", { class: "player-cards", "aria-hidden": "true" }, [
        ...Array.from({ length: backs }, () => cardBack({ size: "tiny" })),
      ]),
      h("div", { class: "player-meta" }, [
        h("span", { "data-testid": "card-count" }, [countText(p.cards ?? 0)]),
        h("span", { class: "muted" }, [t("table.score", { n: p.score ?? view.totals?.[p.seat] ?? 0 })]),
        p.blitz != null
          ? h("span", { class: "muted", "data-testid": "blitz", title: t("table.blitz") }, [clockText(p.blitz)])
          : null,
        sipsBadge(view, p.seat),
      ]),
      catchable
        ? h(
            "button",
            {
              type: "button",
              class: "danger",
              "data-testid": "catch",
              "data-target": p.seat,
              "data-focus-key": `catch-${p.seat}`,
              onClick: () => ctx.send({ type: "catchUno", target: p.seat, at: view.moves }),
            },
            [t("table.catch", { name: ctx.name(p.seat) })],
          )
        : null,
    ],
  );
}

function turnText(view, ctx) {
  if (view.phase === "dealOver") return t("summary.dealOver", { n: view.deal ?? 1 });
  if (view.phase === "matchOver") return t("summary.matchOver");
  if (view.turn === view.you) return t("table.yourTurn");
  return t("table.turnOf", { name: ctx.name(view.turn) });
}

function center(view, ctx, info) {
  const top = view.top;
  const color = view.color;
  const pending = view.pendingDraw || 0;
  const clockwise = (view.direction ?? 1) >= 0;
  const drawLabel = pending > 0 && info.myTurn ? t("table.takePenalty", { n: pending }) : t("table.draw");
  return h("section", { class: "center", "aria-label": t("table.topCard", { card: top ? cardName(top) : "-" }) }, [
    h(
      "button",
      {
        type: "button",
        class: `pile${info.has("draw") ? " can" : ""}`,
        "data-testid": "draw",
        "data-focus-key": "draw",
        "data-enabled": String(info.has("draw")),
        "aria-label": `${drawLabel}: ${t("table.drawPile", { n: view.drawPile ?? 0 })}`,
        onClick: () => ctx.send({ type: "draw" }),
      },
      [
        cardBack(),
        h("span", { class: "pile-label" }, [drawLabel]),
        h("span", { class: "pile-count", "data-testid": "draw-count", "data-count": view.drawPile ?? 0, "data-glyph": String(view.drawPile ?? 0) }),
      ],
    ),
    h(
      "div",
      {
        class: `discard ring-${color || "none"}${info.moved?.landed ? " landed" : ""}${info.moved?.recolored ? " recolored" : ""}`,
        "data-testid": "top-card",
        "data-card": top || "",
        "data-color": color || "",
      },
      [
        top ? cardFace(top) : null,
        h("span", { class: "color-name" }, [color ? t("table.color", { color: colorName(color) }) : ""]),
      ],
    ),
    h("div", { class: "status" }, [
      h(
        "p",
        {
          class: `turn${info.myTurn && view.phase === "playing" ? " mine" : ""}`,
          "data-testid": "turn-indicator",
          "data-turn": view.turn ?? "",
          "data-mine": String(Boolean(info.myTurn)),
          "data-phase": view.phase,
        },
        [turnText(view, ctx)],
      ),
      h(
        "p",
        {
          class: "direction",
          "data-testid": "direction",
          "data-direction": clockwise ? 1 : -1,
        },
        [
          h("span", { class: "dir-arrow", "aria-hidden": "true" }, [clockwise ? "↻" : "↺"]),
          " ",
          clockwise ? t("table.clockwise") : t("table.counterClockwise"),
        ],
      ),
      pending > 0
        ? h("p", { class: "badge penalty", "data-testid": "pending-draw" }, [t("table.pending", { n: pending })])
        : null,
      view.deal ? h("p", { class: "muted" }, [t("table.deal", { n: view.deal })]) : null,
    ]),
  ]);
}

function colorButtons(onPick, colors = wildColors()) {
  return colors.map((c) =>
    h(
      "button",
      {
        type: "button",
        class: `color-choice c-${c}`,
        "data-testid": `color-${c}`,
        "data-focus-key": `color-${c}`,
        onClick: () => onPick(c),
      },
      [colorName(c)],
    ),
  );
}

function colorPrompt(view, ctx) {
  return h("div", { class: "prompt", role: "group", "aria-label": t("table.chooseColor") }, [
    h("p", {}, [t("table.mustChooseColor")]),
    h(
      "div",
      { class: "colors" },
      colorButtons(
        (color) => ctx.send({ type: "chooseColor", color }),
        (view.legal || []).filter((a) => a.type === "chooseColor").map((a) => a.color),
      ),
    ),
  ]);
}

function challengePrompt(view, ctx) {
  return h("div", { class: "prompt warn", role: "group", "data-testid": "challenge-prompt" }, [
    h("p", {}, [t("table.challengePrompt", { n: view.pendingDraw })]),
    h("div", { class: "row" }, [
      h(
        "button",
        {
          type: "button",
          class: "danger",
          "data-testid": "challenge",
          "data-focus-key": "challenge",
          onClick: () => ctx.send({ type: "challenge" }),
        },
        [t("table.challenge")],
      ),
      h("button", { type: "button", onClick: () => ctx.send({ type: "draw" }) }, [
        t("table.takePenalty", { n: view.pendingDraw }),
      ]),
    ]),
  ]);
}

// The draft's one prompt offers keep, discard or both.
function draftPrompt(view, ctx, info) {
  return h("div", { class: "prompt", role: "group", "data-testid": "draft-prompt" }, [
    h("p", {}, [t("table.draft")]),
    h("div", { class: "row" }, [
      view.offer ? cardFace(view.offer) : null,
      info.has("keep")
        ? h("button", { type: "button", class: "primary", "data-testid": "keep", onClick: () => ctx.send({ type: "keep" }) }, [
            t("table.keepCard"),
          ])
        : null,
      info.has("discard")
        ? h("button", { type: "button", "data-testid": "discard", onClick: () => ctx.send({ type: "discard" }) }, [
            t("table.discardCard"),
          ])
        : null,
    ]),
  ]);
}

// The prompts of action types with a prompt of their own, in the order they are shown:
// each drawn once while `legal` lists one of its types.
const PROMPTS = {
  chooseColor: colorPrompt,
  challenge: challengePrompt,
  keep: draftPrompt,
  discard: draftPrompt,
};

// Every action type with a control of its own, by the part of the table that draws it;
// any other action `legal` lists gets a plain button (`prompts`).
const CONTROLS = {
  ...PROMPTS,
  play: hand,
  draw: center,
  catchUno: playerChip,
  pass: controls,
  callUno: controls,
  nextDeal: summary,
};

function prompts(view, ctx, info) {
  const out = [];
  const drawn = new Set();
  for (const [type, prompt] of Object.entries(PROMPTS)) {
    if (!info.has(type) || drawn.has(prompt)) continue;
    drawn.add(prompt);
    out.push(prompt(view, ctx, info));
  }
  // Actions of variants this table has no special controls for still get a button each,
  // exactly as the server lists them.
  const others = (view.legal || []).filter((a) => !Object.hasOwn(CONTROLS, a.type));
  if (others.length) {
    out.push(
      h(
        "div",
        { class: "row prompt" },
        others.map((a) =>
          h("button", { type: "button", "data-testid": `action-${a.type}`, onClick: () => ctx.send(a) }, [
            actionLabel(a, ctx),
          ]),
        ),
      ),
    );
  }
  if (view.followColor && info.myTurn && view.color) {
    out.push(h("p", { class: "prompt", "data-testid": "follow-color" }, [t("table.followColor", { color: colorName(view.color) })]));
  }
  if (view.dumpColor && info.myTurn) {
    out.push(h("p", { class: "prompt", "data-testid": "dump-color" }, [t("table.dumpColor", { color: colorName(view.dumpColor) })]));
  }
  if (view.drawn && info.myTurn) {
    out.push(h("p", { class: "prompt" }, [t("table.drawnPlayable", { card: cardName(view.drawn) })]));
  }
  if (!info.myTurn && info.playable.size > 0 && view.phase === "playing") {
    out.push(h("p", { class: "prompt jump", "data-testid": "jump-in-hint" }, [t("table.jumpIn")]));
  }
  return out;
}

function controls(view, ctx, info) {
  const passLabel = view.drawn ? t("table.keep") : t("table.pass");
  const button = (testid, label, enabled, onClick, cls = "") =>
    h(
      "button",
      {
        type: "button",
        class: `${cls}${enabled ? "" : " off"}`.trim(),
        "data-testid": testid,
        "data-focus-key": testid,
        "data-enabled": String(enabled),
        onClick,
      },
      [label],
    );
  return h("div", { class: "controls", role: "toolbar", "aria-label": t("table.hand") }, [
    button("pass", passLabel, info.has("pass"), () => ctx.send({ type: "pass" })),
    button("uno", t("table.uno"), info.has("callUno"), () => ctx.send({ type: "callUno" }), "uno-button"),
  ]);
}

function hand(view, ctx, info) {
  const cards = view.hand || [];
  return h(
    "section",
    {
      class: "hand-area",
      "aria-label": t("table.handCount", { n: cards.length }),
    },
    [
      h(
        "ul",
        { class: "hand", "data-testid": "hand", "data-count": cards.length },
        cards.map((code, i) => {
          const ok = info.playable.has(code);
          const face = cardFace(code);
          face.removeAttribute("role");
          face.removeAttribute("aria-label");
          return h("li", {}, [
            h(
              "button",
              {
                type: "button",
                class: `card-button${ok ? " playable" : ""}${view.drawn === code ? " drawn" : ""}${info.moved?.arrived.has(i) ? " arrived" : ""}`,
                "data-testid": "card",
                "data-card": code,
                "data-playable": String(ok),
                "data-focus-key": `card-${i}-${code}`,
                "aria-label": ok ? `${cardName(code)}, ${t("card.playable")}` : cardName(code),
                onClick: () => ctx.playCard(code),
              },
              [face],
            ),
          ]);
        }),
      ),
    ],
  );
}

// What the last drawn table showed, so that what changed can move: a new top card lands
// on the pile, new cards arrive in the hand, a new colour in force pulses (CSS; off under
// prefers-reduced-motion).
let shown = null;

function motion(view) {
  const before = shown;
  shown = { top: view.top, color: view.color, hand: [...(view.hand || [])], deal: view.deal };
  if (!before || before.deal !== view.deal) return { landed: false, recolored: false, arrived: new Set() };
  const left = [...before.hand];
  const arrived = new Set();
  (view.hand || []).forEach((code, i) => {
    const at = left.indexOf(code);
    if (at >= 0) left.splice(at, 1);
    else arrived.add(i);
  });
  return {
    landed: Boolean(view.top) && view.top !== before.top,
    recolored: Boolean(view.color) && view.color !== before.color,
    arrived,
  };
}

/** The whole table for `view`; `ctx` = {name(seat), send(action), playCard(code), log, you}. */
export function renderTable(view, ctx) {
  setSide(view.side);
  // The party games have tables of their own (docs/variants-party.md).
  if (view.game === "rommy") return renderRommy(view, ctx);
  if (view.game === "bottle") return renderBottle(view, ctx);
  const info = legalInfo(view);
  info.moved = motion(view);
  const seated = view.you !== null && view.you !== undefined;
  const done = view.phase === "dealOver" || view.phase === "matchOver";
  return h("div", { class: `table phase-${view.phase}`, "data-seq": view.seq ?? "", "data-you": view.you ?? "" }, [
    h("section", { class: "opponents-area", "aria-label": t("room.seats") }, [
      h("ul", { class: "opponents" }, othersInOrder(view).map((p) => playerChip(view, p, ctx, info))),
    ]),
    center(view, ctx, info),
    done ? summary(view, ctx) : null,
    // The last deal's result stays until this player closes it, though the table went on.
    !done && ctx.keptSummary ? summary(ctx.keptSummary, { ...ctx, kept: true }) : null,
    // The prompts and the player's own hand: on a phone they stay pinned to the bottom
    // of the screen, under the pile and whose turn it is (the CSS's .dock).
    h("div", { class: `dock${seated ? " seated" : ""}`, "data-testid": "dock" }, [
    h("div", { class: "prompts" }, prompts(view, ctx, info)),
    seated
      ? h("div", { class: "me" }, [
          h("div", { class: "me-head" }, [
            h("strong", {}, [ctx.name(view.you)]),
            unoBadge(view, view.you),
            h("span", { class: "muted" }, [
              t("table.score", { n: view.players?.[view.you]?.score ?? view.totals?.[view.you] ?? 0 }),
            ]),
            sipsBadge(view, view.you),
            ...seatActions(view, ctx, done),
            controls(view, ctx, info),
          ]),
          hand(view, ctx, info),
        ])
      : h("p", { class: "muted spectating", "data-testid": "spectating" }, [t("table.spectating")]),
    ]),
    h("div", { class: "side" }, [
      seated ? leaveLink(view, ctx, done) : null,
      ctx.chat || null,
      eventLog(ctx.log, ctx),
      // Every seat (and spectator) may read the scores so far and the rules in force.
      (view.room?.deals || []).length
        ? h("details", { class: "panel scores-panel", "data-testid": "scores-panel" }, [
            h("summary", {}, [t("table.scores")]),
            matchScoreboard(view, ctx),
          ])
        : null,
      ctx.catalogue && view.rules ? h("div", { class: "panel" }, [rulesSummary(ctx.catalogue, view.rules)]) : null,
      view.rules?.drinks ? drinksGuide() : null,
    ]),
  ]);
}

export { colorButtons };
