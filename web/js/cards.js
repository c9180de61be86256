// Card codes (docs/cards.md) as data and as drawings.
//
// What a card is (its colour, rank, whether it is wild) and the colours of each side come
// from the server's card table (GET /api/cards, built from the engine's decks), fetched
// once when this module loads, so a card the engine deals is read the way it means.
// Cards are drawn with CSS (a coloured rounded rectangle, a tilted white oval) plus a few
// inline SVG symbols, so there are no image files to load and they scale with the font.

import { api } from "./api.js";
import { t } from "./i18n.js";
import { svg } from "./dom.js";

/** {faces: Map(face code -> {color, rank, wild}), sides: {light: [...], dark: [...]}}. */
function tableOf(data) {
  const faces = new Map();
  for (const deck of data.decks || []) {
    for (const f of [...(deck.cards || []), ...(deck.light || []), ...(deck.dark || [])]) {
      faces.set(f.code, { color: f.color, rank: f.rank, wild: f.wild });
    }
  }
  for (const e of data.extras || []) faces.set(e.code, { color: e.color, rank: e.rank, wild: e.wild });
  return { faces, sides: data.sideColors || {} };
}

// A failed fetch leaves the table empty (every card then reads as an unknown face) rather
// than the whole client unable to load.
const TABLE = await api
  .cards()
  .then(tableOf)
  .catch((err) => {
    console.error("GET /api/cards failed", err);
    return { faces: new Map(), sides: {} };
  });

// UNO Flip: which face of a "LIGHT|DARK" card is up (0 light, 1 dark), as the table
// view says; every other deck has one face.
let shownSide = 0;

/** Show the light or dark faces of UNO Flip cards from now on. */
export function setSide(side) {
  shownSide = side === "dark" ? 1 : 0;
}

/** The colours a wild may name on the side in play. */
export function wildColors() {
  return [...(TABLE.sides[shownSide ? "dark" : "light"] || [])];
}

/** The side (0 light, 1 dark) of a side name; null: the one now up. */
function sideIndex(side) {
  if (side === null || side === undefined) return shownSide;
  return side === "dark" ? 1 : 0;
}

/**
 * {code, face, color, rank, wild}; a Flip card is read by the face now up, or by the
 * face of `side` ("light" / "dark") when given: the log names a card as it was played.
 */
export function parseCard(code, side = null) {
  const faces = String(code).split("|");
  const face = faces[sideIndex(side)] ?? faces[0];
  const known = TABLE.faces.get(face);
  if (!known) return { code, face, color: null, rank: face, wild: false };
  return { code, face, color: known.color, rank: known.rank, wild: known.wild };
}

export function isWild(code, side = null) {
  return parseCard(code, side).wild;
}

export function colorName(letter) {
  return t(`color.${letter}`);
}

/** The card's name for screen readers and the event log: "red 7", "Wild Draw Four". */
export function cardName(code, side = null) {
  const card = parseCard(code, side);
  if (card.wild || !card.color) return t(`card.${card.face}`);
  const rank = /^\d$/.test(card.rank) ? card.rank : t(`rank.${card.rank}`);
  const color = colorName(card.color);
  return t("card.colored", { color: color.charAt(0).toUpperCase() + color.slice(1), rank });
}

export function cardsName(codes, side = null) {
  return (codes || []).map((c) => cardName(c, side)).join(", ");
}

// Symbols that read badly as text get a small SVG drawing.
function symbol(rank) {
  if (rank === "S" || rank === "SE") {
    return svg("svg", { viewBox: "0 0 24 24", class: "sym", "aria-hidden": "true" }, [
      svg("circle", { cx: 12, cy: 12, r: 8, fill: "none", stroke: "currentColor", "stroke-width": 3 }),
      svg("line", { x1: 6.5, y1: 17.5, x2: 17.5, y2: 6.5, stroke: "currentColor", "stroke-width": 3 }),
    ]);
  }
  if (rank === "R") {
    return svg("svg", { viewBox: "0 0 24 24", class: "sym", "aria-hidden": "true" }, [
      svg("path", {
        d: "M4 9h12l-3-3M20 15H8l3 3",
        fill: "none",
        stroke: "currentColor",
        "stroke-width": 2.6,
        "stroke-linecap": "round",
        "stroke-linejoin": "round",
      }),
    ]);
  }
  return null;
}

function labelFor(card) {
  switch (card.face) {
    case "W":
      return "";
    case "WSH":
      return "⇆";
    case "WC":
      return "★";
    case "A+2":
      return "+2";
    case "WDC":
      return "+?";
    default:
      return card.wild ? card.face.slice(1) : card.rank;
  }
}

/**
 * A card drawing: a <span> (wrap it in a button to make it playable).
 * `size` is "" or "small"; the accessible name is on the element's aria-label.
 */
export function cardFace(code, { size = "" } = {}) {
  const card = parseCard(code);
  const el = document.createElement("span");
  el.className = `card ${size} ${card.wild ? "wild" : `c-${card.color}`}`.trim();
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", cardName(code));
  const label = labelFor(card);
  const corner = () => {
    const c = document.createElement("span");
    c.className = label === "6" || label === "9" ? "corner underline" : "corner";
    c.setAttribute("aria-hidden", "true");
    c.dataset.glyph = card.rank === "S" ? "⊘" : card.rank === "R" ? "⇄" : label || "W";
    return c;
  };
  const oval = document.createElement("span");
  oval.className = "oval";
  oval.setAttribute("aria-hidden", "true");
  const sym = card.wild ? null : symbol(card.rank);
  if (sym) {
    oval.append(sym);
  } else {
    const text = document.createElement("span");
    // 6 and 9 are underlined, as on printed cards, so they read the same upside down.
    const underline = label === "6" || label === "9" ? " underline" : "";
    text.className = `rank${label.length > 1 ? " long" : ""}${underline}`;
    text.dataset.glyph = label;
    oval.append(text);
  }
  el.append(corner(), oval, corner());
  return el;
}

/** The back of a card, for draw piles and opponents' hands. */
export function cardBack({ size = "" } = {}) {
  const el = document.createElement("span");
  el.className = `card back ${size}`.trim();
  el.setAttribute("aria-hidden", "true");
  const oval = document.createElement("span");
  oval.className = "oval";
  oval.dataset.glyph = "UNO";
  el.append(oval);
  return el;
}
