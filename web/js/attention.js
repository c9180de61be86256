// Sound and attention: short synthesised sounds (card played, your turn, UNO!, caught),
// the tab's title and icon saying "your turn", and a Notification while the tab is hidden.
//
// Sound is the player's choice, kept in localStorage; until they choose, it is off on
// phones (a table of phones in one room would all beep) and on elsewhere. Browsers start
// audio only after a touch or click anyway. Notifications are asked for only when the
// player clicks "Notify me": never on load.

import { h } from "./dom.js";
import { t } from "./i18n.js";

const KEY = "uno.sound";
// Each sound: [frequency Hz, duration s] notes, played one after the other.
const SOUNDS = {
  card: [[520, 0.06]],
  turn: [[660, 0.09], [880, 0.12]],
  uno: [[880, 0.08], [1175, 0.08], [1568, 0.14]],
  caught: [[330, 0.12], [220, 0.2]],
};
let audio = null;
let baseTitle = null;

function phone() {
  return matchMedia("(pointer: coarse)").matches;
}

export function soundOn() {
  let saved = null;
  try {
    saved = localStorage.getItem(KEY);
  } catch {
    // no storage: the default below
  }
  if (saved === "on" || saved === "off") return saved === "on";
  return !phone();
}

export function setSound(on) {
  try {
    localStorage.setItem(KEY, on ? "on" : "off");
  } catch {
    // the choice holds for this page only
  }
}

/** Play one of SOUNDS when sound is on; the last one is noted on <html> for tests. */
export function play(kind) {
  if (!soundOn() || !SOUNDS[kind]) return;
  document.documentElement.dataset.lastSound = kind;
  try {
    audio = audio || new AudioContext();
    let at = audio.currentTime;
    for (const [freq, length] of SOUNDS[kind]) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.08, at);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
      osc.connect(gain).connect(audio.destination);
      osc.start(at);
      osc.stop(at + length);
      at += length;
    }
  } catch {
    // no audio here: silence is fine
  }
}

/** The sounds a change's events call for (the player's own turn is signalled apart). */
export function soundsFor(events, you) {
  const out = new Set();
  for (const e of events) {
    if (e.type === "play" || e.type === "jumpIn") out.add("card");
    if (e.type === "callUno") out.add("uno");
    if (e.type === "catchUno" && e.target === you) out.add("caught");
  }
  return [...out];
}

function favicon(mine) {
  const link = document.querySelector('link[rel="icon"]');
  if (!link) return;
  const fill = mine ? "%23ffd23f" : "%23d72600";
  link.href = `data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7" fill="${fill}"/></svg>`;
  link.dataset.turn = String(mine);
}

/** The tab says whose turn it is: a mark in the title and a yellow icon on yours. */
export function signalTurn(mine) {
  if (baseTitle === null) baseTitle = document.title.replace(/^\(!\) /, "");
  document.title = mine ? `(!) ${t("table.yourTurn")} – ${baseTitle}` : baseTitle;
  favicon(mine);
}

/** A Notification for the player's turn, only while the tab is hidden and allowed. */
export function notifyTurn() {
  if (!document.hidden || typeof Notification === "undefined") return;
  if (Notification.permission !== "granted") return;
  try {
    new Notification(t("table.yourTurn"), { tag: "uno-turn" });
  } catch {
    // some browsers allow notifications only from a service worker: the title still says it
  }
}

/** The topbar's sound switch and "Notify me" (permission asked on its click only). */
export function attentionTools(onChange) {
  const on = soundOn();
  const tools = [
    h(
      "button",
      {
        type: "button",
        class: "link tool",
        "data-testid": "sound",
        "aria-pressed": String(on),
        onClick: () => {
          setSound(!soundOn());
          if (soundOn()) play("card"); // the click is the gesture that lets audio start
          onChange();
        },
      },
      [on ? t("attention.soundOn") : t("attention.soundOff")],
    ),
  ];
  if (typeof Notification !== "undefined" && Notification.permission === "default") {
    tools.push(
      h(
        "button",
        {
          type: "button",
          class: "link tool",
          "data-testid": "notify",
          onClick: async () => {
            try {
              await Notification.requestPermission();
            } catch {
              // refused or unsupported: nothing to do
            }
            onChange();
          },
        },
        [t("attention.notify")],
      ),
    );
  }
  return tools;
}
