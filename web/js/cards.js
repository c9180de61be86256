// Card codes (docs/cards.md) as data and as drawings.
//
// Cards are drawn with CSS (a coloured rounded rectangle, a tilted white oval) plus a few
// inline SVG symbols, so there are no image files to load and they scale with the font.

import { t } from "./i18n.js";
import { svg } from "./dom.js";

const WILDS = new Set(["W", "W+4", "W+8", "A+2", "WSH", "WC", "W+2", "WDC"]);
const COLORED = /^([RGBYPTOV])(\d|\+\d|SE|S|R|F)$/;

// UNO Flip: which face of a "LIGHT|DARK" card is up (0 light, 1 dark), as the table
// view says; every other deck has one face.
let shownSide = 0;

/** Show the light or dark faces of UNO Flip cards from now on. */
export function setSide(side) {
  shownSide = side === "dark" ? 1 : 0;
}

/** The colours a wild may name on the side in play. */
export function wildColors() {
  return shownSide ? ["P", "T", "O", "V"] : ["R", "G", "B", "Y"];
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
  if (WILDS.has(face)) return { code, face, color: null, rank: face, wild: true };
  const m = COLORED.exec(face);
  if (m) return { code, face, color: m[1], rank: m[2], wild: false };
  return { code, face, color: null, rank: face, wild: false };
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
