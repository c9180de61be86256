// The end of a deal (and of the match): every seat's remaining cards and points.

import { cardFace, cardsName } from "./cards.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
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

/** The deal's end: each seat's remaining cards, points and totals, and the next step. */
export function summary(view, ctx) {
  const over = view.phase === "matchOver";
  const players = view.players || [];
  const reveal = view.reveal || [];
  const scores = view.dealScores || [];
  const totals = view.totals || players.map((p) => p.score ?? 0);
  const canGoOn = (view.legal || []).some((a) => a.type === "nextDeal");
  const winner = view.winner;
  let headline = "";
  if (over) headline = winner !== null && winner !== undefined ? t("summary.winner", { name: ctx.name(winner) }) : "";
  else if (winner !== null && winner !== undefined) headline = t("summary.wentOut", { name: ctx.name(winner) });
  return h("section", { class: "summary panel", "aria-labelledby": "summary-h", "data-testid": "summary" }, [
    h("h2", { id: "summary-h", tabindex: "-1" }, [
      over ? t("summary.matchOver") : t("summary.dealOver", { n: view.deal ?? 1 }),
    ]),
    headline ? h("p", { class: "headline" }, [headline]) : null,
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
    canGoOn
      ? h(
          "button",
          {
            type: "button",
            class: "primary big",
            "data-testid": "next-deal",
            "data-focus-key": "next-deal",
            onClick: () => ctx.send({ type: "nextDeal" }),
          },
          [t("summary.nextDeal")],
        )
      : null,
    over && ctx.playAgain
      ? h("button", { type: "button", class: "primary big", "data-testid": "play-again", onClick: ctx.playAgain }, [
          t("summary.playAgain"),
        ])
      : null,
    over && ctx.leaveRoom
      ? h("button", { type: "button", "data-testid": "leave-room", onClick: ctx.leaveRoom }, [t("summary.leave")])
      : null,
    over ? h("a", { class: "button", href: "#/" }, [t("summary.backToLobby")]) : null,
  ]);
}
