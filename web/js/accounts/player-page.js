// player.html?name=NAME: a player's ratings (a "?" while provisional), a rating chart
// over the recent rated matches, stats and recent matches.
import { profile, ratingText, say } from "./client.js";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";

function cell(row, text) {
  const td = document.createElement("td");
  td.textContent = text;
  row.append(td);
  return td;
}

function ratings(found) {
  const box = $("ratings");
  box.replaceChildren();
  // Every pool, as the server lists them (a newcomer's rating where none was played).
  for (const pool of Object.keys(found.ratings)) {
    const rating = found.ratings[pool];
    const card = document.createElement("div");
    card.className = "rating-card";
    card.dataset.pool = pool;
    const name = document.createElement("div");
    name.textContent = pool;
    const value = document.createElement("div");
    value.className = "value";
    value.dataset.testid = `rating-${pool}`;
    value.setAttribute("data-testid", `rating-${pool}`);
    value.textContent = ratingText(rating);
    const games = document.createElement("div");
    games.textContent = `${rating.games} rated games`;
    card.append(name, value, games);
    box.append(card);
  }
}

function chart(found) {
  // Oldest first: recent comes newest first.
  const points = found.recent
    .filter((m) => m.ratingAfter !== null)
    .reverse()
    .map((m) => m.ratingAfter);
  const svg = $("rating-chart");
  svg.replaceChildren();
  if (points.length === 0) return;
  const first = found.recent.filter((m) => m.ratingBefore !== null).at(-1);
  const values = [first ? first.ratingBefore : points[0], ...points];
  const low = Math.min(...values) - 10;
  const high = Math.max(...values) + 10;
  svg.setAttribute("viewBox", `0 0 ${Math.max(values.length - 1, 1)} 100`);
  svg.setAttribute("preserveAspectRatio", "none");
  const line = document.createElementNS(SVG, "polyline");
  line.setAttribute(
    "points",
    values.map((v, i) => `${i},${100 - ((v - low) / (high - low)) * 100}`).join(" "),
  );
  line.setAttribute("fill", "none");
  line.setAttribute("stroke", "currentColor");
  line.setAttribute("vector-effect", "non-scaling-stroke");
  line.setAttribute("stroke-width", "2");
  svg.append(line);
  svg.dataset.points = String(values.length);
}

function stats(found) {
  const list = $("stats");
  list.replaceChildren();
  const s = found.stats;
  const placings = Object.entries(s.placings)
    .map(([place, count]) => `${place}: ${count}`)
    .join(", ");
  for (const [term, value] of [
    ["Matches", s.matches],
    ["Wins", s.wins],
    ["Places in rated matches", placings || "none yet"],
    ["Deals", s.deals],
    ["Cards played", s.cardsPlayed],
  ]) {
    const dt = document.createElement("dt");
    dt.textContent = term;
    const dd = document.createElement("dd");
    dd.textContent = String(value);
    list.append(dt, dd);
  }
}

function recent(found) {
  const body = $("recent");
  body.replaceChildren();
  for (const match of found.recent) {
    const row = document.createElement("tr");
    cell(row, new Date(match.finished).toLocaleString());
    cell(row, match.roomName);
    cell(row, match.players.map((p) => p.name).join(", "));
    cell(row, match.place === null ? (match.won ? "won" : "") : String(match.place));
    if (match.ratingAfter === null) {
      cell(row, "not rated");
    } else {
      const change = match.ratingAfter - match.ratingBefore;
      const td = cell(row, `${match.ratingAfter} (${change >= 0 ? "+" : ""}${change})`);
      td.className = change >= 0 ? "rating-up" : "rating-down";
    }
    body.append(row);
  }
}

async function show() {
  const name = new URLSearchParams(location.search).get("name") || "";
  $("player-name").textContent = name;
  try {
    const found = await profile(name);
    $("player-name").textContent = found.name;
    document.title = `UNO: ${found.name}`;
    ratings(found);
    chart(found);
    stats(found);
    recent(found);
  } catch (err) {
    $("player-error").textContent = say(err);
  }
}

show();
