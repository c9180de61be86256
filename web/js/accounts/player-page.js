// player.html?name=NAME: a player's ratings (a "?" while provisional), a rating chart
// over the recent rated matches, stats and recent matches.
import { language, ordinal, t } from "../i18n.js";
import { replayUrl } from "../replay-link.js";
import { placesText } from "./places.js";
import { profile, ratingText, say } from "./client.js";
import { ratingChart } from "./rating-chart.js";
import { pageInLanguage } from "./page.js";

const $ = (id) => document.getElementById(id);
let found = null;
let failure = null;

function cell(row, text) {
  const td = document.createElement("td");
  td.textContent = text;
  row.append(td);
  return td;
}

function ratings() {
  const box = $("ratings");
  box.replaceChildren();
  // Every pool, as the server lists them (a newcomer's rating where none was played).
  for (const pool of Object.keys(found.ratings)) {
    const rating = found.ratings[pool];
    const card = document.createElement("div");
    card.className = "rating-card";
    card.dataset.pool = pool;
    const name = document.createElement("div");
    name.textContent = t(`pool.${pool}`);
    const value = document.createElement("div");
    value.className = "value";
    value.setAttribute("data-testid", `rating-${pool}`);
    value.textContent = ratingText(rating);
    const games = document.createElement("div");
    games.setAttribute("data-testid", `rated-games-${pool}`);
    games.textContent = t("player.ratedGames", { n: rating.games });
    card.append(name, value, games);
    box.append(card);
  }
}

function stats() {
  const list = $("stats");
  list.replaceChildren();
  const s = found.stats;
  const number = new Intl.NumberFormat(language());
  for (const [term, value] of [
    ["player.matches", number.format(s.matches)],
    ["player.wins", number.format(s.wins)],
    ["player.places", placesText(s.placings)],
    ["player.deals", number.format(s.deals)],
    ["player.cardsPlayed", number.format(s.cardsPlayed)],
  ]) {
    const dt = document.createElement("dt");
    dt.textContent = t(term);
    const dd = document.createElement("dd");
    dd.setAttribute("data-testid", `stat-${term.split(".")[1]}`);
    dd.textContent = value;
    list.append(dt, dd);
  }
}

function recent() {
  const body = $("recent");
  body.replaceChildren();
  const when = new Intl.DateTimeFormat(language(), { dateStyle: "medium", timeStyle: "short" });
  for (const match of found.recent) {
    const row = document.createElement("tr");
    cell(row, when.format(new Date(match.finished)));
    cell(row, match.roomName);
    cell(row, match.players.map((p) => p.name).join(", "));
    cell(row, match.place === null ? (match.won ? t("player.won") : "") : ordinal(match.place));
    if (match.ratingAfter === null) {
      cell(row, t("player.notRated"));
    } else {
      const change = match.ratingAfter - match.ratingBefore;
      const td = cell(row, `${match.ratingAfter} (${change >= 0 ? "+" : "−"}${Math.abs(change)})`);
      td.className = change >= 0 ? "rating-up" : "rating-down";
    }
    const link = document.createElement("a");
    link.href = replayUrl(match.matchId);
    link.textContent = t("player.replay");
    link.dataset.testid = "recent-replay";
    link.setAttribute("aria-label", `${t("player.replay")}: ${match.roomName}`);
    cell(row, "").append(link);
    body.append(row);
  }
}

function draw() {
  $("player-error").textContent = failure ? say(failure) : "";
  if (!found) return;
  document.title = t("player.title", { name: found.name });
  ratings();
  ratingChart($("rating-chart"), found.recent);
  stats();
  recent();
}

async function show() {
  const name = new URLSearchParams(location.search).get("name") || "";
  $("player-name").textContent = name;
  try {
    found = await profile(name);
    $("player-name").textContent = found.name;
  } catch (err) {
    failure = err;
  }
  draw();
}

pageInLanguage(draw);
window.addEventListener("resize", () => found && ratingChart($("rating-chart"), found.recent));
show();
