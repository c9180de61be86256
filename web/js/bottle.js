// Bottle UNO ("Flaske UNO", docs/variants-party.md): the turn holder turns the top card of
// a face-down pile and the table does what it says. Drawn entirely from the view:
// `drawPile`, `turned`, `top`, `lastAction {seat, card, action, count, side, skipped, sips}`,
// `drinks`, `sips`, `peeCards`, `direction`, `turn`, `legal`.
//
// Only actions in `view.legal` are sent: the "Turn a card" button is live only when the
// list holds `turnCard`, and a chosen receiver is sent only if `legal` lists a `turnCard`
// with that `target`.

import { cardFace, cardName, cardsName } from "./cards.js";
import { h } from "./dom.js";
import { drinksGuide } from "./drinks.js";
import { describeEvent } from "./events.js";
import { has, humanize, t } from "./i18n.js";

// The receiver the turner picked for green / yellow 1-5 sips; kept across redraws.
const choice = { target: "" };

export function seatName(ctx, seat) {
  return seat === null || seat === undefined ? "" : ctx.name(seat);
}

/** A reason key of the sip log in words ("drink", "given", "toast", "cardsInHand", ...). */
export function reasonText(reason) {
  return has(`sipReason.${reason}`) ? t(`sipReason.${reason}`) : humanize(reason);
}

/**
 * Each seat's sips with the reasons behind them (`view.drinks`, `view.sips`), plus
 * Bottle UNO's pee cards when `pee` is given. A real table with a caption and row headers.
 */
export function sipsTally(view, ctx, { testid, pee = null, caption }) {
  const players = view.players || [];
  const drinks = Array.isArray(view.drinks) ? view.drinks : [];
  const byReason = players.map(() => new Map());
  for (const s of view.sips || []) {
    const m = byReason[s.seat];
    if (m) m.set(s.reason, (m.get(s.reason) || 0) + s.count);
  }
  const sipsLabel = view.rules?.sipsAsPoints ? "table.sipPoints" : "table.sips";
  return h("section", { class: "panel tally", "aria-labelledby": `${testid}-h` }, [
    h("h2", { id: `${testid}-h` }, [caption]),
    h("div", { class: "table-scroll" }, [
      h("table", { class: "scoreboard", "data-testid": testid }, [
        h("thead", {}, [
          h("tr", {}, [
            h("th", { scope: "col" }, [t("summary.player")]),
            h("th", { scope: "col", class: "num" }, [t("party.sipsCol")]),
            h("th", { scope: "col" }, [t("party.reasons")]),
            pee ? h("th", { scope: "col", class: "num" }, [t("bottle.peeCol")]) : null,
          ]),
        ]),
        h(
          "tbody",
          {},
          players.map((p) => {
            const entry = drinks[p.seat];
            const total = typeof entry === "number" ? entry : (entry?.total ?? 0);
            const reasons = [...byReason[p.seat].entries()].map(([r, n]) => `${reasonText(r)} ${n}`);
            return h(
              "tr",
              {
                "data-seat": p.seat,
                "data-sips": total,
                class: view.turn === p.seat && view.phase === "playing" ? "turn-row" : "",
              },
              [
                h("th", { scope: "row" }, [ctx.name(p.seat)]),
                h("td", { class: "num", "data-testid": "sips", "data-seat": p.seat, "aria-label": t(sipsLabel, { n: total }) }, [
                  String(total),
                ]),
                h("td", { class: "reasons" }, [reasons.length ? reasons.join(", ") : "–"]),
                pee
                  ? h("td", { class: "num", "data-testid": "bottle-pee", "data-seat": p.seat }, [
                      String(pee[p.seat] ?? 0),
                    ])
                  : null,
              ],
            );
          }),
        ),
      ]),
    ]),
  ]);
}

/**
 * One log line for the party games' events (docs/variants-party.md), in the current
 * language; anything else as the classic table says it.
 */
export function describePartyEvent(e, ctx) {
  const name = seatName(ctx, e.seat);
  switch (e.type) {
    case "turnCard":
      return t("event.party.turnCard", { name, card: cardName(e.card), action: actionTitle(e.action) });
    case "takeDiscard":
      return t("event.party.takeDiscard", { name, card: cardName(e.card) });
    case "takePile":
      return t("event.party.takePile", { name, n: (e.cards || []).length });
    case "meld":
      return t("event.party.meld", { name, cards: cardsName(e.cards) });
    case "layOff":
      return t("event.party.layOff", { name, cards: cardsName(e.cards), n: (e.meld ?? 0) + 1 });
    case "swapJoker":
      return t("event.party.swapJoker", { name, card: cardName(e.card), joker: cardName(e.joker), n: (e.meld ?? 0) + 1 });
    case "discardCard":
      return t("event.party.discardCard", { name, card: cardName(e.card) });
    case "penalty":
      return t("event.party.penalty", { name, n: e.count });
    case "sips":
      return t("event.party.sips", { name, n: e.count, reason: reasonText(e.reason) });
    default:
      return describeEvent(e, ctx);
  }
}

/** The event log of the party games (the classic log's shape and hooks). */
export function partyLog(log, ctx) {
  const shown = log.filter((e) => !["watch", "unwatch", "watchers"].includes(e.type)).slice(-40).reverse();
  return h("section", { class: "log panel", "aria-labelledby": "log-h" }, [
    h("h2", { id: "log-h" }, [t("table.log")]),
    h(
      "ol",
      { class: "log-list", "data-testid": "log", reversed: true },
      shown.map((e) => h("li", { "data-type": e.type }, [describePartyEvent(e, ctx)])),
    ),
  ]);
}

/**
 * A turned card's action in words, from `lastAction` alone: the sips (`count`), who gets
 * them (`target`, `sips`), the Draw Two's `side` and the seat `skipped` are the engine's.
 */
export function describeTurn(last, ctx) {
  const who = seatName(ctx, last.seat);
  const card = cardName(last.card);
  const sips = last.sips;
  let what;
  switch (last.action) {
    case "drink":
      what = t("bottle.do.drink", { name: who, n: last.count });
      break;
    case "give":
      what = t("bottle.do.give", { name: who, n: last.count, target: seatName(ctx, last.target) });
      break;
    case "drawTwo":
      what = t(`bottle.do.drawTwo.${last.side}`, { name: who, target: seatName(ctx, sips[0]?.seat) });
      break;
    case "drawFour":
      what = t("bottle.do.drawFour", { names: sips.map((s) => seatName(ctx, s.seat)).join(` ${t("party.and")} `) });
      break;
    case "skip":
      what = t("bottle.do.skip", { name: seatName(ctx, last.skipped) });
      break;
    case "reverse":
      what = t("bottle.do.reverse");
      break;
    default:
      what = has(`bottle.do.${last.action}`) ? t(`bottle.do.${last.action}`, { name: who }) : humanize(last.action);
  }
  return { headline: t("bottle.turned", { name: who, card }), what };
}

function actionTitle(action) {
  return has(`bottle.action.${action}`) ? t(`bottle.action.${action}`) : humanize(action);
}

function turnText(view, ctx) {
  if (view.phase === "dealOver") return t("bottle.roundOver", { n: view.deal ?? 1 });
  if (view.phase === "matchOver") return t("bottle.gameOver");
  if (view.turn === view.you) return t("bottle.yourTurn");
  return t("bottle.turnOf", { name: ctx.name(view.turn) });
}

function turnControls(view, ctx) {
  const legal = (view.legal || []).filter((a) => a.type === "turnCard");
  const mine = legal.length > 0;
  const targets = legal.filter((a) => a.target !== undefined && a.target !== null).map((a) => a.target);
  if (choice.target !== "" && !targets.includes(Number(choice.target))) choice.target = "";
  const select = h(
    "select",
    {
      id: "bottle-target",
      "data-testid": "bottle-target",
      "data-focus-key": "bottle-target",
      onChange: (e) => {
        choice.target = e.target.value;
      },
    },
    [
      h("option", { value: "" }, [t("bottle.targetNext")]),
      ...targets.map((s) => h("option", { value: String(s), selected: String(s) === choice.target }, [ctx.name(s)])),
    ],
  );
  const turn = () => {
    if (!mine) return;
    const target = choice.target === "" ? null : Number(choice.target);
    const action = legal.find((a) => (target === null ? a.target === undefined || a.target === null : a.target === target));
    if (action) ctx.send(action);
  };
  return h("div", { class: "bottle-controls" }, [
    h(
      "button",
      {
        type: "button",
        class: `primary big bottle-turn${mine ? "" : " off"}`,
        "data-testid": "bottle-turn",
        "data-focus-key": "bottle-turn",
        "data-enabled": String(mine),
        "aria-disabled": mine ? null : "true",
        "aria-keyshortcuts": "T",
        onClick: turn,
      },
      [mine ? t("bottle.turnCard") : turnText(view, ctx)],
    ),
    mine && targets.length
      ? h("p", { class: "bottle-target" }, [
          h("label", { for: "bottle-target" }, [t("bottle.targetLabel")]),
          " ",
          select,
        ])
      : null,
  ]);
}

function lastAction(view, ctx) {
  const last = view.lastAction;
  if (!last) {
    return h("div", { class: "bottle-last", "data-testid": "bottle-last-action", "data-action": "" }, [
      h("p", { class: "muted" }, [t("bottle.nothingYet")]),
    ]);
  }
  const { headline, what } = describeTurn(last, ctx);
  return h(
    "div",
    {
      class: "bottle-last",
      "data-testid": "bottle-last-action",
      "data-action": last.action,
      "data-card": last.card,
      "data-seat": last.seat,
      role: "status",
    },
    [
      h("p", { class: "bottle-headline" }, [headline]),
      h("p", { class: "bottle-action-name" }, [actionTitle(last.action)]),
      h("p", { class: "bottle-what" }, [what]),
    ],
  );
}

function roundOver(view, ctx) {
  const over = view.phase === "matchOver";
  const canGoOn = (view.legal || []).some((a) => a.type === "nextDeal");
  return h("section", { class: "summary panel", "data-testid": "summary", "aria-labelledby": "summary-h" }, [
    h("h2", { id: "summary-h", tabindex: "-1" }, [over ? t("bottle.gameOver") : t("bottle.roundOver", { n: view.deal ?? 1 })]),
    h("p", {}, [t("bottle.pileEmpty")]),
    canGoOn
      ? h(
          "button",
          {
            type: "button",
            class: "primary big",
            // A guest's press says "ready"; the host's deals on (docs/protocol.md).
            "data-testid": ctx.isHost === false ? "ready" : "next-deal",
            "data-focus-key": "next-deal",
            onClick: () => ctx.send({ type: "nextDeal" }),
          },
          [ctx.isHost === false ? t("summary.ready") : t("bottle.nextRound")],
        )
      : null,
    over ? h("a", { class: "button", href: "#/" }, [t("summary.backToLobby")]) : null,
  ]);
}

/** The Bottle UNO table for `view`; `ctx` as for renderTable. */
export function renderBottle(view, ctx) {
  const clockwise = (view.direction ?? 1) >= 0;
  const done = view.phase === "dealOver" || view.phase === "matchOver";
  const seated = view.you !== null && view.you !== undefined;
  const top = view.top;
  return h(
    "div",
    { class: `table bottle phase-${view.phase}`, "data-seq": view.seq ?? "", "data-you": view.you ?? "", "data-game": "bottle" },
    [
      h("section", { class: "center bottle-center", "aria-label": t("preset.bottle") }, [
        h("div", { class: "pile bottle-pile", "data-testid": "bottle-pile", "data-count": view.drawPile ?? 0 }, [
          h("span", { class: "card back", "aria-hidden": "true" }, [h("span", { class: "oval" }, ["UNO"])]),
          h("span", { class: "pile-label" }, [t("bottle.pile", { n: view.drawPile ?? 0 })]),
        ]),
        h("div", { class: "discard", "data-testid": "top-card", "data-card": top || "", "data-color": view.color || "" }, [
          top ? cardFace(top) : h("span", { class: "muted" }, [t("bottle.noCard")]),
          h("span", { class: "color-name" }, [t("bottle.turnedCount", { n: view.turned ?? 0 })]),
        ]),
        h("div", { class: "status" }, [
          h(
            "p",
            {
              class: `turn${view.turn === view.you && view.phase === "playing" ? " mine" : ""}`,
              "data-testid": "turn-indicator",
              "data-turn": view.turn ?? "",
              "data-mine": String(seated && view.turn === view.you),
              "data-phase": view.phase,
            },
            [turnText(view, ctx)],
          ),
          h("p", { class: "direction", "data-testid": "direction", "data-direction": clockwise ? 1 : -1 }, [
            h("span", { class: "dir-arrow", "aria-hidden": "true" }, [clockwise ? "↻" : "↺"]),
            " ",
            clockwise ? t("table.clockwise") : t("table.counterClockwise"),
          ]),
          view.deal ? h("p", { class: "muted" }, [t("bottle.round", { n: view.deal })]) : null,
        ]),
        lastAction(view, ctx),
      ]),
      done ? roundOver(view, ctx) : null,
      h("div", { class: "prompts" }, [
        seated && !done ? turnControls(view, ctx) : null,
        !seated ? h("p", { class: "muted spectating", "data-testid": "spectating" }, [t("table.spectating")]) : null,
      ]),
      h("div", { class: "me" }, [
        sipsTally(view, ctx, { testid: "bottle-tally", pee: view.peeCards || [], caption: t("bottle.tally") }),
      ]),
      h("div", { class: "side" }, [ctx.chat || null, partyLog(ctx.log, ctx), drinksGuide()]),
    ],
  );
}
