// Tiny DOM helpers: the client re-renders whole regions from the view, so building
// elements from data must be short to write and safe (text is never parsed as HTML).

function setAttrs(el, attrs) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2).toLowerCase(), value);
    } else if (key === "text") {
      el.textContent = value;
    } else if (key === "dataset") {
      Object.assign(el.dataset, value);
    } else {
      el.setAttribute(key, value === true ? "" : String(value));
    }
  }
}

function append(el, children) {
  for (const child of [children].flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** h("button", {class: "x", onClick: fn, "data-testid": "draw"}, ["Draw"]) */
export function h(tag, attrs = {}, children = []) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

export function svg(tag, attrs = {}, children = []) {
  const el = document.createElementNS("http://www.w3.org/2000/svg", tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

/** Replace everything inside `el`. */
export function mount(el, children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/**
 * Keep keyboard focus across a re-render: remember the focused element's `data-focus-key`
 * and focus the element with the same key afterwards. A card that left the hand hands
 * focus to the card now at its place, so a keyboard player keeps their spot.
 */
export function preservingFocus(root, render) {
  const active = document.activeElement;
  const key = active && root.contains(active) ? active.dataset.focusKey : null;
  render();
  if (!key) return;
  let again = root.querySelector(`[data-focus-key="${CSS.escape(key)}"]`);
  const card = /^card-(\d+)-/.exec(key);
  if (!again && card) {
    const cards = root.querySelectorAll('[data-focus-key^="card-"]');
    again = cards[Math.min(Number(card[1]), cards.length - 1)] || root.querySelector('[data-focus-key="draw"]');
  }
  if (again) again.focus({ preventScroll: true });
}
