// Entry point: a hash router between the lobby (#/), a room (#/room/<id>), the
// tournament lobby (#/tournaments), a tournament (#/tournament/<id>) and its host console
// (#/tournament/<id>/host), the language switch, and the connection badge. Hash routes keep the app a set of static
// files: any path the server serves at / works without server-side routing.

import { language, onLanguageChange, setLanguage, t } from "./i18n.js";
import { showLobby } from "./lobby.js";
import { showRoom } from "./room.js";
import { showTournament } from "./tournament.js";
import { showTournaments } from "./tournaments.js";

const main = document.getElementById("main");
let current = null; // the shown screen: {dispose(), rerender()}

function parseRoute() {
  const hash = location.hash.replace(/^#\/?/, "");
  const [path, query = ""] = hash.split("?");
  const parts = path.split("/").filter(Boolean);
  const params = Object.fromEntries(new URLSearchParams(query));
  if (parts[0] === "room" && parts[1]) return { name: "room", roomId: decodeURIComponent(parts[1]), params };
  if (parts[0] === "tournaments") return { name: "tournaments", params };
  if (parts[0] === "tournament" && parts[1]) {
    return { name: "tournament", tournamentId: decodeURIComponent(parts[1]), host: parts[2] === "host", params };
  }
  return { name: "lobby", params };
}

function route() {
  current?.dispose?.();
  document.getElementById("topbar-room").replaceChildren();
  document.getElementById("topbar-attention").replaceChildren();
  setMenu(false);
  window.scrollTo(0, 0); // a new screen starts at its top, not where the last one was scrolled
  document.getElementById("conn").textContent = "";
  const r = parseRoute();
  document.getElementById("nav-tournaments").toggleAttribute("aria-current", r.name.startsWith("tournament"));
  if (r.name === "room") current = showRoom(main, r.roomId, r.params);
  else if (r.name === "tournaments") current = showTournaments(main);
  else if (r.name === "tournament") current = showTournament(main, r.tournamentId, { host: r.host });
  else current = showLobby(main, r.params);
}

function translateChrome() {
  document.documentElement.lang = language();
  document.getElementById("skip-link").textContent = t("app.skip");
  document.getElementById("lang-label").textContent = t("lang.label");
  document.getElementById("nav-tournaments").textContent = t("nav.tournaments");
  document.getElementById("nav-leaderboard").textContent = t("nav.leaderboard");
  document.getElementById("nav-account").textContent = t("nav.account");
  document.getElementById("brand").setAttribute("aria-label", `${t("app.title")} – ${t("nav.lobby")}`);
  document.getElementById("lang").value = language();
  document.getElementById("menu-label").textContent = t("nav.menu");
}

// The top bar's menu (a phone's sound, notifications, tournaments and language; on wider
// screens the same tools sit in the bar and the toggle is not shown).
const menuToggle = document.getElementById("menu-toggle");

function setMenu(open) {
  menuToggle.setAttribute("aria-expanded", String(open));
  document.querySelector(".topbar").classList.toggle("menu-open", open);
}

menuToggle.addEventListener("click", () => setMenu(menuToggle.getAttribute("aria-expanded") !== "true"));
document.addEventListener("keydown", (e) => {
  if (e.key === "Escape" && menuToggle.getAttribute("aria-expanded") === "true") {
    setMenu(false);
    menuToggle.focus();
  }
});
// A click elsewhere closes it (the path, not the target: a tool redraws itself on click).
document.addEventListener("click", (e) => {
  if (!e.composedPath().includes(document.querySelector(".topbar"))) setMenu(false);
});

document.getElementById("lang").addEventListener("change", (e) => setLanguage(e.target.value));
onLanguageChange(() => {
  translateChrome();
  current?.rerender?.();
});
window.addEventListener("hashchange", route);
translateChrome();
route();
