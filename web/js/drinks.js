// DrukUNO's drinking tally on the table: each seat's sips and the drinks guide.

import { h } from "./dom.js";
import { t } from "./i18n.js";

/** A seat's drinking tally (`view.drinks`: per seat {total, byReason}), if drinks are on. */
export function sipsBadge(view, seat) {
  if (!Array.isArray(view.drinks)) return null;
  const entry = view.drinks[seat];
  const n = typeof entry === "number" ? entry : (entry?.total ?? 0);
  const key = view.rules?.sipsAsPoints ? "table.sipPoints" : "table.sips";
  return h("span", { class: "sips", "data-testid": "sips", "data-seat": seat }, [t(key, { n })]);
}

// RULES.md section 4: what one sip-sized drink is, and how strong drinks convert.
// The seed gives no size or strength for cider and no strength for draught beer.
const BEVERAGES = [
  ["beer", 33, 4.6],
  ["draught", 50, null],
  ["cider", null, null],
  ["wine", 12, 12],
  ["spirits", 2, 37],
];

// The table is redrawn on every change; the guide keeps its state across redraws.
const guide = { open: false, abv: 21 };

export function drinksGuide() {
  const abv = h("input", {
    id: "abv",
    type: "number",
    min: 1,
    max: 96,
    step: 0.5,
    value: guide.abv,
    inputmode: "decimal",
    "data-testid": "abv",
  });
  const result = h("output", { for: "abv", "data-testid": "abv-volume" });
  const update = () => {
    const value = Number(abv.value);
    guide.abv = abv.value;
    // 2 cl of 37 % spirits holds the same alcohol as (2 x 37 / ABV) cl of the drink.
    const cl = Math.round((2 * 37 * 10) / value) / 10;
    result.textContent = value > 0 ? t("drinks.volume", { cl: String(cl) }) : "";
  };
  abv.addEventListener("input", update);
  update();
  const details = h("details", { class: "drinks-guide panel", "data-testid": "drinks-guide", open: guide.open }, [
    h("summary", {}, [t("drinks.guide")]),
    h("table", { class: "scoreboard" }, [
      h("thead", {}, [
        h("tr", {}, [
          h("th", { scope: "col" }, [t("drinks.drink")]),
          h("th", { scope: "col", class: "num" }, ["cl"]),
          h("th", { scope: "col", class: "num" }, ["%"]),
        ]),
      ]),
      h(
        "tbody",
        {},
        BEVERAGES.map(([name, cl, pct]) =>
          h("tr", {}, [
            h("th", { scope: "row" }, [t(`drinks.${name}`)]),
            h("td", { class: "num" }, [cl ?? "–"]),
            h("td", { class: "num" }, [pct ?? "–"]),
          ]),
        ),
      ),
    ]),
    h("p", {}, [h("label", { for: "abv" }, [t("drinks.convert")]), " ", abv, " % → ", result]),
  ]);
  details.addEventListener("toggle", () => {
    guide.open = details.open;
  });
  return details;
}
