// Entry point: a hash router between the lobby (#/) and a room (#/room/<id>), the
// language switch, and the connection badge. Hash routes keep the app a set of static
// files: any path the server serves at / works without server-side routing.

import { language, onLanguageChange, setLanguage, t } from "./i18n.js";
import { showLobby } from "./lobby.js";
import { showRoom } from "./room.js";

const main = document.getElementById("main");
let current = null; // the shown screen: {dispose(), rerender()}

function parseRoute() {
  const hash = location.hash.replace(/^#\/?/, "");
  const [path, query = ""] = hash.split("?");
  const parts = path.split("/").filter(Boolean);
  const params = Object.fromEntries(new URLSearchParams(query));
  if (parts[0] === "room" && parts[1]) return { name: "room", roomId: decodeURIComponent(parts[1]), params };
  return { name: "lobby", params };
}

function route() {
  current?.dispose?.();
  document.getElementById("topbar-room").replaceChildren();
  document.getElementById("conn").textContent = "";
  const r = parseRoute();
  current = r.name === "room" ? showRoom(main, r.roomId, r.params) : showLobby(main, r.params);
}

function translateChrome() {
  document.documentElement.lang = language();
  document.getElementById("skip-link").textContent = t("app.skip");
  document.getElementById("lang-label").textContent = t("lang.label");
  document.getElementById("brand").setAttribute("aria-label", `${t("app.title")} – ${t("nav.lobby")}`);
  document.getElementById("lang").value = language();
}

document.getElementById("lang").addEventListener("change", (e) => setLanguage(e.target.value));
onLanguageChange(() => {
  translateChrome();
  current?.rerender?.();
});
window.addEventListener("hashchange", route);
translateChrome();
route();
