// UNO Rommy (docs/variants-party.md): draw (stock, top discard or the whole pile), then
// meld, lay off, swap jokers, and discard to end the turn. Drawn entirely from the view:
// `hand`, `melds [{kind, cards, as, seats}]`, `discard` (top first), `stock`, `step`,
// `mustMeld`, `pendingDraw`, `legal`, `totals`, `dealScores`, `reveal`, `pointsLaid`,
// `pointsInHand`, `drinks`, `sips`.
//
// The player selects cards in the hand, then presses Meld, Discard, or a meld's "Lay off
// here" / "Swap joker". Rommy's `legal` lists every draw, discard, single-card lay-off and
// joker swap, so those are sent only as listed; melds and multi-card lay-offs are not all
// listed, so a selection that matches no listed one is sent as selected, in the order the
// cards were pressed: the server lays them in table order, or refuses them (it alone knows
// what a meld is and how a run lies).

import { cardFace, cardName, cardsName, parseCard } from "./cards.js";
import { h } from "./dom.js";
import { drinksGuide } from "./drinks.js";
import { t } from "./i18n.js";
import { partyLog, sipsTally } from "./bottle.js";
import { ratingChangesBlock } from "./summary.js";

// The selection survives redraws while the hand stays the same: hand indices, in click order.
const selection = { hand: "", picked: [] };

// The jokers are the deck's wild cards (docs/variants-party.md), as the card table says.
const isJoker = (code) => parseCard(code).wild;

function sameCards(a, b) {
  if (a.length !== b.length) return false;
  const x = [...a].sort();
  const y = [...b].sort();
  return x.every((c, i) => c === y[i]);
}

/** Which seat laid most of a meld's cards (the first of them on a tie): its "owner". */
function ownerOf(meld) {
  const counts = new Map();
  for (const s of meld.seats || []) counts.set(s, (counts.get(s) || 0) + 1);
  let best = meld.seats?.[0] ?? 0;
  for (const [s, n] of counts) if (n > (counts.get(best) || 0)) best = s;
  return best;
}

/** What a joker in `meld` stands for, in words: "7" in a set, "R4" in a run. */
function standsFor(meld, as) {
  return meld.kind === "set" ? t("rommy.anyColor", { n: as }) : cardName(as);
}

function meldTitle(meld) {
  const cards = meld.cards || [];
  const as = meld.as || cards;
  if (meld.kind === "set") {
    const natural = cards.find((c) => !isJoker(c));
    return t("rommy.setOf", { n: natural ? parseCard(natural).rank : "?" });
  }
  const first = parseCard(as[0]);
  const last = parseCard(as.at(-1));
  return t("rommy.runOf", { color: t(`color.${first.color || "R"}`), from: first.rank, to: last.rank });
}

function legalOf(view) {
  const legal = view.legal || [];
  return {
    legal,
    has: (type) => legal.some((a) => a.type === type),
    find: (type, pred = () => true) => legal.find((a) => a.type === type && pred(a)),
    all: (type) => legal.filter((a) => a.type === type),
  };
}

/** The Rommy table for `view`; `ctx` as for renderTable. */
export function renderRommy(view, ctx) {
  const hand = view.hand || [];
  const key = hand.join(",");
  if (selection.hand !== key) {
    selection.hand = key;
    selection.picked = [];
  }
  const picked = selection.picked.filter((i) => i < hand.length);
  const chosen = picked.map((i) => hand[i]);
  const L = legalOf(view);
  const seated = view.you !== null && view.you !== undefined;
  const myTurn = seated && view.turn === view.you && view.phase === "playing";
  const playStep = myTurn && view.step === "play";
  const done = view.phase === "dealOver" || view.phase === "matchOver";
  let root = null;

  function refresh() {
    const active = document.activeElement;
    const focusKey = root && root.contains(active) ? active.dataset.focusKey : null;
    const next = renderRommy(view, ctx);
    root.replaceWith(next);
    if (focusKey) next.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`)?.focus({ preventScroll: true });
  }

  function toggle(i) {
    const at = selection.picked.indexOf(i);
    if (at >= 0) selection.picked.splice(at, 1);
    else selection.picked.push(i);
    refresh();
  }

  function clear() {
    selection.picked = [];
    refresh();
  }

  function send(action) {
    ctx.send(action);
  }

  // ---- what the selection may do --------------------------------------------------------

  const one = chosen.length === 1 ? chosen[0] : null;
  // A selection the legal list holds goes as listed; any other as selected, for the server
  // to judge (the list holds only some melds).
  const listedMeld = L.find("meld", (a) => sameCards(a.cards || [], chosen));
  const meldAction = playStep && chosen.length ? listedMeld || { type: "meld", cards: chosen } : null;
  const discardAction = one !== null ? L.find("discardCard", (a) => a.cards?.[0] === one) : null;
  const layOffFor = (index) => {
    if (!playStep || view.mustMeld || !chosen.length) return null;
    if (one !== null) return L.find("layOff", (a) => a.target === index && a.cards?.[0] === one) || null;
    return { type: "layOff", cards: chosen, target: index };
  };
  const swapFor = (index) =>
    one !== null ? L.find("swapJoker", (a) => a.target === index && a.cards?.[0] === one) || null : null;
  // With nothing selected, the melds any single card could go on are highlighted.
  const offered = new Set(
    L.all("layOff")
      .filter((a) => !chosen.length || (one !== null && a.cards?.[0] === one))
      .map((a) => a.target),
  );
  const inLegal = new Set(
    L.legal.filter((a) => ["meld", "layOff", "swapJoker"].includes(a.type)).flatMap((a) => a.cards || []),
  );

  // ---- pieces ---------------------------------------------------------------------------

  const button = (testid, label, action, { cls = "", extra = {} } = {}) =>
    h(
      "button",
      {
        type: "button",
        class: `${cls}${action ? "" : " off"}`.trim(),
        "data-testid": testid,
        "data-focus-key": extra["data-focus-key"] || testid,
        "data-enabled": String(Boolean(action)),
        "aria-disabled": action ? null : "true",
        ...extra,
        onClick: () => {
          if (action) send(action);
        },
      },
      [label],
    );

  function players() {
    const list = view.players || [];
    return h("section", { class: "opponents-area", "aria-label": t("room.seats") }, [
      h(
        "ul",
        { class: "opponents rommy-players" },
        list.map((p) => {
          const isTurn = view.turn === p.seat && view.phase === "playing";
          const drinks = Array.isArray(view.drinks) ? view.drinks[p.seat] ?? 0 : null;
          return h(
            "li",
            {
              class: `player${isTurn ? " turn" : ""}${p.connected === false ? " offline" : ""}`,
              "data-testid": "player",
              "data-seat": p.seat,
              "aria-current": isTurn ? "true" : null,
            },
            [
              h("div", { class: "player-head" }, [
                h("span", {
                  class: `dot ${p.connected === false ? "off" : "on"}`,
                  role: "img",
                  "aria-label": p.connected === false ? t("table.disconnected") : t("table.connected"),
                }),
                h("strong", { class: "player-name" }, [ctx.name(p.seat)]),
                view.dealer === p.seat ? h("span", { class: "badge" }, [t("table.dealer")]) : null,
              ]),
              h("div", { class: "player-meta" }, [
                h("span", { "data-testid": "card-count" }, [p.cards === 1 ? t("table.card1") : t("table.cards", { n: p.cards ?? 0 })]),
                h("span", { class: "muted", "data-testid": "rommy-score" }, [t("table.score", { n: view.totals?.[p.seat] ?? p.score ?? 0 })]),
                drinks !== null
                  ? h("span", { class: "sips", "data-testid": "sips", "data-seat": p.seat }, [
                      t(view.rules?.sipsAsPoints ? "table.sipPoints" : "table.sips", { n: drinks }),
                    ])
                  : null,
              ]),
            ],
          );
        }),
      ),
    ]);
  }

  function turnText() {
    if (view.phase === "dealOver") return t("summary.dealOver", { n: view.deal ?? 1 });
    if (view.phase === "matchOver") return t("summary.matchOver");
    if (myTurn) return t("table.yourTurn");
    return t("table.turnOf", { name: ctx.name(view.turn) });
  }

  function center() {
    const pile = view.discard || [];
    const top = view.top ?? pile[0] ?? null;
    const pending = view.pendingDraw || 0;
    const drawAction = L.find("draw");
    return h("section", { class: "center rommy-center", "aria-label": t("rommy.tableArea") }, [
      h(
        "button",
        {
          type: "button",
          class: `pile${drawAction ? " can" : ""}`,
          "data-testid": "rommy-stock",
          "data-count": view.stock ?? view.drawPile ?? 0,
          "data-focus-key": "rommy-stock",
          "data-enabled": String(Boolean(drawAction)),
          "aria-disabled": drawAction ? null : "true",
          "aria-keyshortcuts": "D",
          "aria-label": `${pending && myTurn ? t("rommy.drawN", { n: pending }) : t("rommy.drawStock")}. ${t("rommy.stockCount", { n: view.stock ?? 0 })}`,
          onClick: () => drawAction && send(drawAction),
        },
        [
          h("span", { class: "card back", "aria-hidden": "true" }, [h("span", { class: "oval" }, ["UNO"])]),
          h("span", { class: "pile-label" }, [pending && myTurn ? t("rommy.drawN", { n: pending }) : t("rommy.stock")]),
          h("span", { class: "pile-count", "aria-hidden": "true" }, [String(view.stock ?? 0)]),
        ],
      ),
      h(
        "div",
        {
          class: "discard rommy-discard",
          "data-testid": "rommy-discard",
          "data-card": top || "",
          "data-count": pile.length,
        },
        [
          top ? cardFace(top) : h("span", { class: "empty-pile" }, [t("rommy.emptyPile")]),
          h("span", { class: "color-name" }, [t("rommy.pileCount", { n: pile.length })]),
          h("div", { class: "row take-buttons" }, [
            button("rommy-take-discard", t("rommy.takeDiscard"), L.find("takeDiscard") || null),
            button("rommy-take-pile", t("rommy.takePile", { n: pile.length }), L.find("takePile") || null),
          ]),
          pile.length > 1
            ? h("details", { class: "pile-cards" }, [
                h("summary", {}, [t("rommy.showPile")]),
                h("p", { class: "mini-cards", "aria-label": cardsName(pile) }, pile.map((c) => cardFace(c, { size: "small" }))),
              ])
            : null,
        ],
      ),
      h("div", { class: "status" }, [
        h(
          "p",
          {
            class: `turn${myTurn ? " mine" : ""}`,
            "data-testid": "turn-indicator",
            "data-turn": view.turn ?? "",
            "data-mine": String(myTurn),
            "data-phase": view.phase,
            "data-step": view.step ?? "",
          },
          [turnText()],
        ),
        view.phase === "playing"
          ? h("p", { class: "step", "data-testid": "rommy-step", "data-step": view.step }, [
              view.step === "draw" ? t("rommy.drawStep") : t("rommy.playStep"),
            ])
          : null,
        view.mustMeld && view.phase === "playing"
          ? h("p", { class: "badge penalty", "data-testid": "rommy-must-meld" }, [
              myTurn ? t("rommy.youMustMeld") : t("rommy.mustMeld", { name: ctx.name(view.turn) }),
            ])
          : null,
        pending > 0 ? h("p", { class: "badge penalty", "data-testid": "pending-draw" }, [t("table.pending", { n: pending })]) : null,
        view.deal ? h("p", { class: "muted" }, [t("table.deal", { n: view.deal })]) : null,
      ]),
    ]);
  }

  function meldItem(meld, index) {
    const cards = meld.cards || [];
    const as = meld.as || cards;
    const lay = layOffFor(index);
    const swap = swapFor(index);
    const hasJoker = cards.some(isJoker);
    const owner = ownerOf(meld);
    const title = meldTitle(meld);
    return h(
      "li",
      {
        class: `rommy-meld${offered.has(index) && playStep && !view.mustMeld ? " can-lay" : ""}${lay || swap ? " target" : ""}`,
        "data-testid": "rommy-meld",
        "data-index": index,
        "data-kind": meld.kind,
        "data-cards": cards.join(" "),
        "aria-label": t("rommy.meldLabel", { n: index + 1, title }),
      },
      [
        h("p", { class: "meld-title" }, [`${index + 1}. ${title}`]),
        h(
          "ul",
          { class: "meld-cards" },
          cards.map((c, i) => {
            const face = cardFace(c, { size: "small" });
            const by = meld.seats?.[i];
            const joker = isJoker(c);
            let label = cardName(c);
            if (joker) label += `, ${t("rommy.standsFor", { card: standsFor(meld, as[i]) })}`;
            if (by !== undefined && by !== owner) label += `, ${t("rommy.laidBy", { name: ctx.name(by) })}`;
            face.setAttribute("aria-label", label);
            return h("li", { class: `meld-card${joker ? " joker" : ""}`, "data-card": c, "data-as": as[i] ?? c }, [
              face,
              joker ? standsChip(meld, as[i]) : null,
            ]);
          }),
        ),
        playStep && !view.mustMeld
          ? h("div", { class: "row meld-actions" }, [
              button("rommy-layoff", t("rommy.layOffHere"), lay, {
                extra: { "data-target": index, "data-focus-key": `layoff-${index}`, "aria-label": `${t("rommy.layOffHere")}: ${title}` },
              }),
              hasJoker
                ? button("rommy-swap", t("rommy.swapJoker"), swap, {
                    extra: { "data-target": index, "data-focus-key": `swap-${index}`, "aria-label": `${t("rommy.swapJoker")}: ${title}` },
                  })
                : null,
            ])
          : null,
      ],
    );
  }

  function melds() {
    const list = view.melds || [];
    const bySeat = new Map();
    list.forEach((m, i) => {
      const o = ownerOf(m);
      if (!bySeat.has(o)) bySeat.set(o, []);
      bySeat.get(o).push([m, i]);
    });
    const seats = [...bySeat.keys()].sort((a, b) => a - b);
    return h("section", { class: "panel rommy-melds", "data-testid": "rommy-melds", "data-count": list.length, "aria-labelledby": "melds-h" }, [
      h("h2", { id: "melds-h" }, [t("rommy.melds", { n: list.length })]),
      list.length ? null : h("p", { class: "muted" }, [t("rommy.noMelds")]),
      ...seats.map((seat) =>
        h("div", { class: "meld-group", "data-testid": "rommy-meld-group", "data-seat": seat }, [
          h("h3", {}, [t("rommy.meldsOf", { name: ctx.name(seat) })]),
          h("ul", { class: "meld-list" }, bySeat.get(seat).map(([m, i]) => meldItem(m, i))),
        ]),
      ),
    ]);
  }

  function suggestions() {
    const list = playStep ? L.all("meld") : [];
    if (!list.length) return null;
    const shown = list.slice(0, 8);
    return h("div", { class: "prompt rommy-suggestions", role: "group", "aria-labelledby": "suggest-h" }, [
      h("p", { id: "suggest-h" }, [view.mustMeld ? t("rommy.youMustMeld") : t("rommy.suggested")]),
      h(
        "div",
        { class: "row" },
        shown.map((a, i) =>
          h(
            "button",
            {
              type: "button",
              class: "suggestion",
              "data-testid": "rommy-suggestion",
              "data-cards": a.cards.join(" "),
              "data-focus-key": `suggest-${i}`,
              "aria-label": `${t("rommy.meld")}: ${cardsName(a.cards)}`,
              onClick: () => send(a),
            },
            [h("span", { class: "mini-cards", "aria-hidden": "true" }, a.cards.map((c) => cardFace(c, { size: "small" })))],
          ),
        ),
      ),
      list.length > shown.length ? h("p", { class: "muted" }, [t("rommy.moreMelds", { n: list.length - shown.length })]) : null,
    ]);
  }

  function handArea() {
    return h("div", { class: "me rommy-me" }, [
      h("div", { class: "me-head" }, [
        h("strong", {}, [ctx.name(view.you)]),
        h("span", { class: "muted" }, [t("table.score", { n: view.totals?.[view.you] ?? 0 })]),
      ]),
      h(
        "p",
        { class: "hint", "data-testid": "rommy-hint", "aria-live": "polite" },
        [
          !myTurn
            ? ""
            : view.step === "draw"
              ? t("rommy.hintDraw")
              : chosen.length
                ? t("rommy.selected", { cards: cardsName(chosen) })
                : t("rommy.hintPlay"),
        ],
      ),
      h("section", { class: "hand-area", "aria-label": t("table.handCount", { n: hand.length }) }, [
        h(
          "ul",
          { class: "hand", "data-testid": "hand", "data-count": hand.length, "aria-label": t("rommy.selectHelp") },
          hand.map((code, i) => {
            const on = picked.includes(i);
            const useful = playStep && inLegal.has(code);
            const face = cardFace(code);
            face.removeAttribute("role");
            face.removeAttribute("aria-label");
            return h("li", {}, [
              h(
                "button",
                {
                  type: "button",
                  class: `card-button selectable${useful ? " playable" : ""}${on ? " selected" : ""}`,
                  "data-testid": "card",
                  "data-card": code,
                  "data-playable": String(useful),
                  "data-selected": String(on),
                  "aria-pressed": String(on),
                  "data-focus-key": `card-${i}-${code}`,
                  "aria-label": cardName(code),
                  onClick: () => toggle(i),
                },
                [face],
              ),
            ]);
          }),
        ),
      ]),
      done
        ? null
        : h("div", { class: "controls rommy-actions", role: "toolbar", "aria-label": t("rommy.actions"), "data-testid": "rommy-actions" }, [
        button("rommy-meld-selected", t("rommy.meld"), meldAction, { cls: "primary" }),
        button("rommy-discard-selected", t("rommy.discard"), discardAction && !view.mustMeld ? discardAction : null),
        h(
          "button",
          { type: "button", class: "link", "data-testid": "rommy-clear", "data-focus-key": "rommy-clear", onClick: clear },
          [t("rommy.clear")],
        ),
      ]),
    ]);
  }

  function dealSummary() {
    const over = view.phase === "matchOver";
    const list = view.players || [];
    const reveal = view.reveal || [];
    // The points are the server's (the view's pointsLaid / pointsInHand at the deal's end).
    const laid = view.pointsLaid || [];
    const held = view.pointsInHand || [];
    const canGoOn = L.has("nextDeal");
    const winner = view.winner;
    return h("section", { class: "summary panel", "data-testid": "summary", "aria-labelledby": "summary-h" }, [
      h("h2", { id: "summary-h", tabindex: "-1" }, [over ? t("summary.matchOver") : t("summary.dealOver", { n: view.deal ?? 1 })]),
      winner !== null && winner !== undefined
        ? h("p", { class: "headline" }, [over ? t("summary.winner", { name: ctx.name(winner) }) : t("summary.wentOut", { name: ctx.name(winner) })])
        : null,
      h("div", { class: "table-scroll" }, [
        h("table", { class: "scoreboard", "data-testid": "scoreboard" }, [
          h("caption", { class: "visually-hidden" }, [t("summary.scoreboard")]),
          h("thead", {}, [
            h("tr", {}, [
              h("th", { scope: "col" }, [t("summary.player")]),
              h("th", { scope: "col", class: "num" }, [t("rommy.melded")]),
              h("th", { scope: "col" }, [t("rommy.inHand")]),
              h("th", { scope: "col", class: "num" }, [t("summary.points")]),
              h("th", { scope: "col", class: "num" }, [t("summary.total")]),
            ]),
          ]),
          h(
            "tbody",
            {},
            list.map((p) => {
              const left = reveal[p.seat] || [];
              const handPts = held[p.seat] ?? 0;
              return h("tr", { "data-seat": p.seat, class: p.seat === winner ? "winner" : "" }, [
                h("th", { scope: "row" }, [ctx.name(p.seat)]),
                h("td", { class: "num", "data-testid": "rommy-melded" }, [`+${laid[p.seat] ?? 0}`]),
                h("td", { "data-testid": "rommy-in-hand", "aria-label": `${left.length ? cardsName(left) : t("summary.none")}: -${handPts}` }, [
                  h("span", { class: "mini-cards", "aria-hidden": "true" }, left.map((c) => cardFace(c, { size: "small" }))),
                  h("span", { "aria-hidden": "true" }, [` -${handPts}`]),
                ]),
                h("td", { class: "num", "data-testid": "deal-score" }, [String(view.dealScores?.[p.seat] ?? 0)]),
                h("td", { class: "num", "data-testid": "total" }, [String(view.totals?.[p.seat] ?? 0)]),
              ]);
            }),
          ),
        ]),
      ]),
      ratingChangesBlock(view, ctx),
      canGoOn
        ? h(
            "button",
            // A guest's press says "ready"; the host's deals on (docs/protocol.md).
            { type: "button", class: "primary big", "data-testid": ctx.isHost === false ? "ready" : "next-deal", "data-focus-key": "next-deal", onClick: () => send({ type: "nextDeal" }) },
            [ctx.isHost === false ? t("summary.ready") : t("summary.nextDeal")],
          )
        : null,
      over ? h("a", { class: "button", href: "#/" }, [t("summary.backToLobby")]) : null,
    ]);
  }

  root = h(
    "div",
    { class: `table rommy phase-${view.phase}`, "data-seq": view.seq ?? "", "data-you": view.you ?? "", "data-game": "rommy" },
    [
      players(),
      center(),
      done ? dealSummary() : null,
      h("div", { class: "prompts" }, [suggestions()]),
      h("div", { class: "rommy-board" }, [melds()]),
      seated ? handArea() : h("p", { class: "muted spectating", "data-testid": "spectating" }, [t("table.spectating")]),
      h("div", { class: "side" }, [
        ctx.chat || null,
        Array.isArray(view.drinks)
          ? sipsTally(view, ctx, { testid: "rommy-drinks", caption: t("rommy.drinks") })
          : null,
        partyLog(ctx.log, ctx),
        view.rules?.drinks ? drinksGuide() : null,
      ]),
    ],
  );
  return root;
}

/** Under a joker: what it stands for, as a number on its colour ("7" alone for a set). */
function standsChip(meld, as) {
  const exact = as && meld.kind !== "set" ? parseCard(as) : null;
  return h("span", { class: `stands${exact?.color ? ` c-${exact.color}` : ""}`, "aria-hidden": "true" }, [
    `= ${exact ? exact.rank : as ?? "?"}`,
  ]);
}
