// The end of a deal (and of the match): every seat's remaining cards and points.

import { cardFace, cardsName } from "./cards.js";
import { client } from "./client.js";
import { h } from "./dom.js";
import { ordinal, t } from "./i18n.js";
import { replayUrl } from "./replay-link.js";
import { shuffleCheck } from "./shuffle.js";

/** "Shuffle verified": the revealed server seed is the one committed to before the deal. */
function shuffleLine(view) {
  const check = shuffleCheck(view);
  if (!check) return null;
  const line = h("p", { class: "shuffle-check", "data-testid": "shuffle-check", "data-state": check.state }, [
    t(`summary.shuffle.${check.state}`),
  ]);
  if (check.state === "pending") {
    check.promise.then((state) => {
      for (const el of document.querySelectorAll('[data-testid="shuffle-check"]')) {
        el.dataset.state = state;
        el.textContent = t(`summary.shuffle.${state}`);
      }
    });
  }
  return line;
}

// The rating changes of rated matches, by match id: a promise of the seats' changes
// (empty when the server has none). The archive stores (and rates) a match a moment after
// its end, so the route is asked again while it answers "not rated yet".
const ratingChanges = new Map();
const RATING_TRIES = 30;
const RATING_WAIT_MS = 1000;

async function fetchRatings(matchId) {
  for (let attempt = 0; attempt < RATING_TRIES; attempt += 1) {
    try {
      const found = await client.matchRatings(matchId);
      if (found.rated) return found.seats;
    } catch {
      // Asked again below.
    }
    await new Promise((resolve) => setTimeout(resolve, RATING_WAIT_MS));
  }
  return [];
}

function ratingsOf(matchId) {
  let entry = ratingChanges.get(matchId);
  if (!entry) {
    entry = { seats: null };
    entry.promise = fetchRatings(matchId).then((seats) => {
      entry.seats = seats;
      return seats;
    });
    ratingChanges.set(matchId, entry);
  }
  return entry;
}

/** "1500 → 1523? (+23)": a seat's rating before and after ("?": still provisional). */
function changeText(change) {
  const diff = change.ratingAfter - change.ratingBefore;
  const signed = diff > 0 ? `+${diff}` : diff < 0 ? `−${-diff}` : "±0";
  return `${change.ratingBefore} → ${change.ratingAfter}${change.provisional ? "?" : ""} (${signed})`;
}

/**
 * Why a rating moved: the seat's place among the match's players, and whether it shares
 * its total with another seat ("2nd of 4, tied on points").
 */
export function ratingReason(change, view) {
  const players = view.players || [];
  const totals = view.totals || players.map((p) => p.score ?? 0);
  const mine = totals[change.seat];
  const tied = players.some((p) => p.seat !== change.seat && totals[p.seat] === mine);
  const where = t("summary.placeOf", { place: ordinal(change.place), n: players.length });
  return tied ? t("summary.placeTied", { where }) : where;
}

function ratingList(seats, ctx, view) {
  if (!seats) {
    return h("p", { class: "rating-changes muted", "data-testid": "rating-changes", "data-state": "pending", role: "status" }, [
      t("summary.ratingsPending"),
    ]);
  }
  if (!seats.length) return h("div", { hidden: true, "data-testid": "rating-changes", "data-state": "none" });
  return h("div", { class: "rating-changes", "data-testid": "rating-changes", "data-state": "shown" }, [
    h("h3", {}, [t("summary.ratings")]),
    h(
      "ul",
      {},
      seats.map((change) =>
        h("li", { "data-testid": "rating-change", "data-seat": change.seat, "data-after": change.ratingAfter }, [
          h("span", { class: "who" }, [ctx.name(change.seat)]),
          " ",
          h("span", { class: "change" }, [changeText(change)]),
          h("span", { class: "why", "data-testid": "rating-reason" }, [ratingReason(change, view)]),
        ]),
      ),
    ),
  ]);
}

/**
 * A rated match's end: each rated seat's rating before and after it, read through the
 * page's uno-client (`GET /api/matches/{matchId}/ratings`) once the match is stored.
 */
export function ratingChangesBlock(view, ctx) {
  const matchId = view.room?.matchId;
  if (view.phase !== "matchOver" || !view.room?.rated || !matchId) return null;
  const entry = ratingsOf(matchId);
  if (entry.seats === null) {
    entry.promise.then((seats) => {
      for (const el of document.querySelectorAll('[data-testid="rating-changes"][data-state="pending"]')) {
        el.replaceWith(ratingList(seats, ctx, view));
      }
    });
  }
  return ratingList(entry.seats, ctx, view);
}

/**
 * Every finished deal of the match (`view.room.deals`): who went out, each seat's points
 * and the running totals. Shown with a deal's result and at any time from the table.
 */
export function matchScoreboard(view, ctx) {
  const deals = view.room?.deals || [];
  const players = view.players || [];
  return h("div", { class: "table-scroll" }, [
    h("table", { class: "scoreboard deals", "data-testid": "match-scoreboard" }, [
      h("caption", {}, [t("summary.allDeals")]),
      h("thead", {}, [
        h("tr", {}, [
          h("th", { scope: "col" }, [t("summary.deal")]),
          h("th", { scope: "col" }, [t("summary.wentOutCol")]),
          ...players.map((p) => h("th", { scope: "col", class: "num" }, [ctx.name(p.seat)])),
        ]),
      ]),
      h(
        "tbody",
        {},
        deals.length
          ? deals.map((d) =>
              h("tr", { "data-deal": d.deal }, [
                h("th", { scope: "row" }, [String(d.deal)]),
                h("td", {}, [d.winner === null || d.winner === undefined ? "–" : ctx.name(d.winner)]),
                ...players.map((p) =>
                  h("td", { class: "num", "data-testid": "deal-cell" }, [
                    d.scores ? `${d.scores[p.seat] ?? 0}` : "",
                    h("span", { class: "running" }, [` (${t("summary.total")} ${d.totals?.[p.seat] ?? 0})`]),
                  ]),
                ),
              ]),
            )
          : [h("tr", {}, [h("td", { colspan: players.length + 2, class: "muted" }, [t("summary.noDeals")])])],
      ),
    ]),
  ]);
}

/** Who said "ready" for the next deal, and the host's or everyone's part in it. */
function nextDealControls(view, ctx) {
  const canGoOn = (view.legal || []).some((a) => a.type === "nextDeal");
  if (!canGoOn || ctx.kept) return [];
  const ready = view.room?.ready || [];
  const names = ready.map((s) => ctx.name(s)).join(", ");
  const status = ready.length
    ? h("p", { class: "muted", "data-testid": "ready-list", role: "status" }, [t("summary.readyList", { names })])
    : null;
  if (ctx.isHost) {
    return [
      h(
        "button",
        {
          type: "button",
          class: "primary big",
          "data-testid": "next-deal",
          "data-focus-key": "next-deal",
          onClick: () => ctx.send({ type: "nextDeal" }),
        },
        [t("summary.nextDeal")],
      ),
      status,
    ];
  }
  const mine = ready.includes(view.you);
  return [
    mine
      ? h("p", { class: "muted", "data-testid": "waiting-host" }, [t("summary.waitingHost")])
      : h(
          "button",
          {
            type: "button",
            class: "primary big",
            "data-testid": "ready",
            "data-focus-key": "ready",
            onClick: () => ctx.send({ type: "nextDeal" }),
          },
          [t("summary.ready")],
        ),
    status,
  ];
}

/**
 * The deal's end: each seat's remaining cards, points and totals, and the next step.
 * `ctx.kept`: a deal already over that this player has not closed yet (the table went on
 * underneath); it gets a close button instead of the next step.
 */
export function summary(view, ctx) {
  const over = view.phase === "matchOver";
  const players = view.players || [];
  const reveal = view.reveal || [];
  const scores = view.dealScores || [];
  const totals = view.totals || players.map((p) => p.score ?? 0);
  const winner = view.winner;
  let headline = "";
  if (over) headline = winner !== null && winner !== undefined ? t("summary.winner", { name: ctx.name(winner) }) : "";
  else if (winner !== null && winner !== undefined) headline = t("summary.wentOut", { name: ctx.name(winner) });
  return h("section", { class: `summary panel${ctx.kept ? " kept" : ""}`, "aria-labelledby": "summary-h", "data-testid": "summary", "data-deal": view.deal ?? "" }, [
    h("h2", { id: "summary-h", tabindex: "-1" }, [
      over ? t("summary.matchOver") : t("summary.dealOver", { n: view.deal ?? 1 }),
    ]),
    headline ? h("p", { class: "headline" }, [headline]) : null,
    // The next step and the rating changes first, on the first screen of a phone; the
    // scores follow.
    ctx.kept ? null : ratingChangesBlock(view, ctx),
    ...nextDealControls(view, ctx),
    ctx.kept
      ? h("button", { type: "button", class: "primary", "data-testid": "close-summary", onClick: ctx.closeSummary }, [
          t("summary.close"),
        ])
      : null,
    over && ctx.playAgain && !ctx.kept
      ? h("button", { type: "button", class: "primary big", "data-testid": "play-again", onClick: ctx.playAgain }, [
          t("summary.playAgain"),
        ])
      : null,
    shuffleLine(view),
    h("div", { class: "table-scroll" }, [
      h("table", { class: "scoreboard", "data-testid": "scoreboard" }, [
        h("caption", { class: "visually-hidden" }, [t("summary.scoreboard")]),
        h("thead", {}, [
          h("tr", {}, [
            h("th", { scope: "col" }, [t("summary.player")]),
            h("th", { scope: "col" }, [t("summary.cardsLeft")]),
            h("th", { scope: "col", class: "num" }, [t("summary.points")]),
            h("th", { scope: "col", class: "num" }, [t("summary.total")]),
          ]),
        ]),
        h(
          "tbody",
          {},
          players.map((p) => {
            const left = reveal[p.seat] || [];
            return h("tr", { "data-seat": p.seat, class: p.seat === winner ? "winner" : "" }, [
              h("th", { scope: "row" }, [ctx.name(p.seat)]),
              h("td", { "aria-label": left.length ? cardsName(left) : t("summary.none") }, [
                h(
                  "span",
                  { class: "mini-cards", "aria-hidden": "true" },
                  left.length ? left.map((c) => cardFace(c, { size: "small" })) : [t("summary.none")],
                ),
              ]),
              h("td", { class: "num", "data-testid": "deal-score" }, [String(scores[p.seat] ?? 0)]),
              h("td", { class: "num", "data-testid": "total" }, [String(totals[p.seat] ?? 0)]),
            ]);
          }),
        ),
      ]),
    ]),
    (view.room?.deals || []).length > 1 ? matchScoreboard(view, ctx) : null,
    over && ctx.leaveRoom
      ? h("button", { type: "button", "data-testid": "leave-room", onClick: ctx.leaveRoom }, [t("summary.leave")])
      : null,
    over && view.room?.matchId
      ? h("a", { class: "button", href: replayUrl(view.room.matchId, view.deal ?? 1), "data-testid": "summary-replay" }, [
          t("replay.linkDeal", { n: view.deal ?? 1 }),
        ])
      : null,
    over ? h("a", { class: "button", href: "#/" }, [t("summary.backToLobby")]) : null,
  ]);
}
