// DrukUNO's drinking tally on the table: each seat's sips and the drinks guide.

import { api } from "./api.js";
import { h } from "./dom.js";
import { has, t } from "./i18n.js";

/** A seat's drinking tally (`view.drinks`: per seat {total, byReason}), if drinks are on. */
export function sipsBadge(view, seat) {
  if (!Array.isArray(view.drinks)) return null;
  const entry = view.drinks[seat];
  const n = typeof entry === "number" ? entry : (entry?.total ?? 0);
  const key = view.rules?.sipsAsPoints ? "table.sipPoints" : "table.sips";
  return h("span", { class: "sips", "data-testid": "sips", "data-seat": seat }, [t(key, { n })]);
}

// The beverage table comes from the server (GET /api/drinks), fetched once per page.
let beverages = null;
function loadBeverages() {
  if (!beverages) {
    beverages = api.drinks().then((data) => data.beverages || []);
    beverages.catch(() => {
      beverages = null;
    });
  }
  return beverages;
}

// The table is redrawn on every change; the guide keeps its state across redraws.
const guide = { open: false, abv: 21 };

export function drinksGuide() {
  const body = h("tbody");
  loadBeverages()
    .then((list) =>
      body.replaceChildren(
        ...list.map((b) =>
          h("tr", { "data-beverage": b.id }, [
            h("th", { scope: "row" }, [has(`drinks.${b.id}`) ? t(`drinks.${b.id}`) : b.name]),
            h("td", { class: "num" }, [String(b.volumeCl)]),
            h("td", { class: "num" }, [String(b.abv)]),
          ]),
        ),
      ),
    )
    .catch(() => {});
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
      body,
    ]),
    h("p", {}, [h("label", { for: "abv" }, [t("drinks.convert")]), " ", abv, " % → ", result]),
  ]);
  details.addEventListener("toggle", () => {
    guide.open = details.open;
  });
  return details;
}
