// leaderboard.html?pool=POOL: the pool's players with a rated game ("?": provisional).
import { fillPools, leaderboard, ratingText, say } from "./client.js";
import { pageInLanguage } from "./page.js";

const $ = (id) => document.getElementById(id);

async function show(pool) {
  $("board-error").textContent = "";
  const body = $("board");
  body.replaceChildren();
  try {
    const found = await leaderboard(pool);
    for (const row of found.players) {
      const tr = document.createElement("tr");
      const link = document.createElement("a");
      link.href = `player.html?name=${encodeURIComponent(row.name)}`;
      link.textContent = row.name;
      for (const value of [String(row.rank), link, ratingText(row), String(row.games)]) {
        const td = document.createElement("td");
        td.append(value);
        tr.append(td);
      }
      body.append(tr);
    }
    $("board-empty").hidden = found.players.length > 0;
  } catch (err) {
    $("board-error").textContent = say(err);
  }
}

const params = new URLSearchParams(location.search);
const pool = params.get("pool") || "classic";
fillPools($("pool"), pool);
$("pool").addEventListener("change", () => {
  history.replaceState(null, "", `?pool=${$("pool").value}`);
  show($("pool").value);
});
pageInLanguage();
show(pool);
