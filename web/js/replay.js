// replay.html?match=MATCH&deal=N: a finished deal step by step, every hand face up.
//
// The frames come from the server (GET /api/matches/{matchId}/deals/{n}/frames, through
// the page's uno-client): the engine replayed the deal's log and gave each step's table as
// an all-seeing spectator sees it. The page only draws them; it knows no rule.

import { cardFace, cardName, setSide } from "./cards.js";
import { client } from "./client.js";
import { h, mount } from "./dom.js";
import { describeEvent, loggedEvents } from "./events.js";
import { errorText, LANGUAGES, language, onLanguageChange, setLanguage, t } from "./i18n.js";
import { seedCheck } from "./shuffle.js";

const main = document.getElementById("main");
const SPEEDS = { slow: 2000, normal: 1000, fast: 400 }; // ms per step
const params = new URLSearchParams(location.search);
const matchId = params.get("match") || "";

const state = {
  body: null, // the frames route's answer for the deal shown
  index: 0, // the frame shown
  speed: "normal",
  timer: null, // the play timer while playing
  shuffle: "pending", // the deal's shuffle check: pending, verified, failed, unavailable
  error: null,
};

const nameOf = (seat) => state.body?.players.find((p) => p.seat === seat)?.name ?? t("replay.seat", { n: seat + 1 });
const ctx = { name: nameOf, you: null };

async function load(deal) {
  stop();
  state.error = null;
  try {
    state.body = await client.frames(matchId, deal);
    state.index = Math.min(Number(params.get("step") || 0), state.body.frames.length - 1);
  } catch (err) {
    state.body = null;
    state.error = err;
  }
  state.shuffle = "pending";
  render();
  if (state.body) checkShuffle(state.body);
}

/** "Shuffle verified": the engine's checks of the deal passed, and this browser finds the
 * revealed server seed to be the one committed to before the deal. */
async function checkShuffle(body) {
  const proof = body.shuffle;
  const passed = Object.values(body.checks || {}).every((c) => c === "ok");
  let result = "failed";
  if (proof?.serverSeed && passed) result = await seedCheck(proof.serverSeed, proof.commitment);
  if (state.body !== body) return;
  state.shuffle = result;
  update();
}

function go(index) {
  const last = state.body.frames.length - 1;
  state.index = Math.max(0, Math.min(last, index));
  if (state.index === last) stop();
  update();
}

function play() {
  if (state.index >= state.body.frames.length - 1) state.index = 0;
  clearInterval(state.timer);
  state.timer = setInterval(() => go(state.index + 1), SPEEDS[state.speed]);
  update();
}

function stop() {
  clearInterval(state.timer);
  state.timer = null;
}

/** The step's sentence: its events as the table's log says them. */
function sentence(frame) {
  if (frame.action === null) return t("replay.dealt");
  const lines = loggedEvents(frame.events, { details: false }).map((e) => describeEvent(e, ctx));
  return lines.join(" · ") || t("replay.noChange");
}

// The controls stay while the steps change (a slider being dragged must not be redrawn):
// `update` sets what they show.
const ui = {};

function button(testid, label, glyph, onClick) {
  return h("button", { type: "button", "data-testid": testid, "aria-label": label, title: label, onClick }, [glyph]);
}

function controls(frames) {
  const last = frames.length - 1;
  ui.first = button("replay-first", t("replay.first"), "|◀", () => go(0));
  ui.prev = button("replay-prev", t("replay.prev"), "◀", () => go(state.index - 1));
  ui.play = h("button", { type: "button", class: "primary", "data-testid": "replay-play", onClick: () => (state.timer === null ? play() : (stop(), update())) });
  ui.next = button("replay-next", t("replay.next"), "▶", () => go(state.index + 1));
  ui.last = button("replay-last", t("replay.last"), "▶|", () => go(last));
  ui.step = h("output", { class: "replay-step", "data-testid": "replay-step" });
  ui.slider = h("input", { type: "range", min: 0, max: last, "data-testid": "replay-slider", onInput: (e) => go(Number(e.target.value)) });
  const speed = h(
    "select",
    {
      "data-testid": "replay-speed",
      onChange: (e) => {
        state.speed = e.target.value;
        if (state.timer !== null) play();
      },
    },
    Object.keys(SPEEDS).map((s) => h("option", { value: s, selected: s === state.speed }, [t(`replay.speed.${s}`)])),
  );
  return h("div", { class: "replay-controls" }, [
    h("div", { class: "replay-buttons" }, [ui.first, ui.prev, ui.play, ui.next, ui.last, ui.step]),
    h("div", { class: "replay-sliders" }, [
      h("label", { class: "replay-slider" }, [h("span", { class: "visually-hidden" }, [t("replay.slider")]), ui.slider]),
      h("label", { class: "replay-speed" }, [t("replay.speed"), " ", speed]),
    ]),
    h("p", { class: "muted replay-keys" }, [t("replay.keys")]),
  ]);
}

function dealPicker(body) {
  if (body.deals.length < 2) return null;
  return h("label", { class: "replay-deal" }, [
    t("replay.deal"),
    " ",
    h(
      "select",
      {
        "data-testid": "replay-deal",
        onChange: (e) => {
          const deal = Number(e.target.value);
          params.set("deal", String(deal));
          params.delete("step");
          history.replaceState(null, "", `?${params}`);
          load(deal);
        },
      },
      body.deals.map((n) => h("option", { value: n, selected: n === body.deal }, [t("replay.dealOption", { n })])),
    ),
  ]);
}

function seat(player, view) {
  const hand = view.hands[player.seat] || [];
  const turn = view.turn === player.seat && !["dealOver", "matchOver"].includes(view.phase);
  return h("section", { class: `replay-seat${turn ? " turn" : ""}`, "data-testid": "replay-seat", "data-seat": player.seat }, [
    h("h2", {}, [
      player.name,
      turn ? h("span", { class: "badge" }, [t("replay.turn")]) : null,
      h("span", { class: "muted count" }, [t("replay.cards", { n: hand.length })]),
    ]),
    h(
      "ul",
      { class: "replay-hand", "data-testid": "replay-hand", "data-seat": player.seat, "aria-label": t("replay.handOf", { name: player.name }) },
      hand.map((c) => h("li", {}, [cardFace(c, { size: "small" })])),
    ),
  ]);
}

function pile(view) {
  return h("div", { class: "replay-pile" }, [
    view.top ? h("div", { "data-testid": "replay-top" }, [cardFace(view.top)]) : null,
    h("p", {}, [view.top ? t("replay.top", { card: cardName(view.top) }) : ""]),
    h("p", { "data-testid": "replay-draw-pile" }, [t("replay.drawPile", { n: view.drawPile ?? 0 })]),
  ]);
}

function scores(body) {
  return h("table", { class: "scoreboard", "data-testid": "replay-scores" }, [
    h("caption", {}, [t("replay.scores")]),
    h("thead", {}, [
      h("tr", {}, [
        h("th", { scope: "col" }, [t("summary.player")]),
        h("th", { scope: "col", class: "num" }, [t("summary.points")]),
        h("th", { scope: "col", class: "num" }, [t("summary.total")]),
      ]),
    ]),
    h(
      "tbody",
      {},
      body.players.map((p) =>
        h("tr", { class: p.seat === body.winner ? "winner" : "" }, [
          h("th", { scope: "row" }, [p.name]),
          h("td", { class: "num" }, [String(body.scores[p.seat] ?? "–")]),
          h("td", { class: "num" }, [String(body.totals[p.seat] ?? 0)]),
        ]),
      ),
    ),
  ]);
}

/** Draw the page for the deal loaded (or its error), then the step shown. */
function render() {
  document.documentElement.lang = language();
  document.title = `UNO: ${t("replay.title")}`;
  if (state.error) {
    const code = state.error.code;
    const message = code === "match_in_progress" ? t("replay.inProgress") : errorText(code, state.error.message);
    mount(main, [h("h1", {}, [t("replay.title")]), h("p", { class: "error", role: "alert", "data-testid": "replay-error" }, [message])]);
    return;
  }
  const body = state.body;
  if (!body) {
    mount(main, [h("p", { class: "muted" }, [t("replay.loading")])]);
    return;
  }
  ui.action = h("p", { class: "replay-action", "data-testid": "replay-action", "aria-live": "polite" });
  ui.table = h("div", { class: "replay-table" });
  ui.end = h("div", { class: "replay-end" });
  ui.shuffle = h("p", { class: "shuffle-check", "data-testid": "replay-shuffle" });
  const broken = body.replay.error;
  mount(main, [
    h("div", { class: "replay-head" }, [h("h1", {}, [t("replay.heading", { n: body.deal })]), dealPicker(body)]),
    controls(body.frames),
    ui.action,
    ui.table,
    broken ? h("p", { class: "error", role: "alert" }, [t("replay.broken", { n: (broken.index ?? 0) + 1 })]) : null,
    ui.end,
    ui.shuffle,
  ]);
  update();
}

/** Show the step `state.index` of the deal loaded. */
function update() {
  const body = state.body;
  const frames = body.frames;
  const frame = frames[state.index];
  const last = frames.length - 1;
  const playing = state.timer !== null;
  setSide(frame.view.side ?? null);
  for (const [el, off] of [
    [ui.first, state.index === 0],
    [ui.prev, state.index === 0],
    [ui.next, state.index === last],
    [ui.last, state.index === last],
  ]) {
    // A button about to be disabled hands focus on, so the keyboard keeps its place.
    if (off && document.activeElement === el) ui.play.focus();
    el.disabled = off;
  }
  ui.play.textContent = playing ? t("replay.pause") : t("replay.play");
  ui.play.setAttribute("aria-pressed", String(playing));
  ui.step.textContent = `${state.index + 1} / ${frames.length}`;
  ui.slider.value = String(state.index);
  ui.slider.setAttribute("aria-valuetext", ui.step.textContent);
  ui.action.textContent = sentence(frame);
  mount(ui.table, [pile(frame.view), h("div", { class: "replay-seats" }, body.players.map((p) => seat(p, frame.view)))]);
  mount(ui.end, state.index === last ? [scores(body)] : []);
  ui.shuffle.dataset.state = state.shuffle;
  ui.shuffle.textContent = t(`summary.shuffle.${state.shuffle}`);
}

function keys(e) {
  if (!state.body || e.altKey || e.ctrlKey || e.metaKey) return;
  if (e.target.closest?.("input, select, textarea")) return;
  const moves = { ArrowLeft: state.index - 1, ArrowRight: state.index + 1, Home: 0, End: state.body.frames.length - 1 };
  if (!(e.key in moves)) return;
  e.preventDefault();
  stop();
  go(moves[e.key]);
}

function chrome() {
  const select = document.getElementById("lang");
  mount(select, LANGUAGES.map((l) => h("option", { value: l }, [t(`lang.${l}`)])));
  select.value = language();
  document.getElementById("lang-label").textContent = t("lang.label");
  document.getElementById("skip-link").textContent = t("app.skip");
}

document.getElementById("lang").addEventListener("change", (e) => setLanguage(e.target.value));
onLanguageChange(() => {
  chrome();
  render();
});
document.addEventListener("keydown", keys);
chrome();
render();
load(Number(params.get("deal") || 1));
