// A tournament table's waiting page (#/room/<id>?tournament=<tid> before its deal): who
// sits at the table and who is here, when the table deals, and the way back to the
// tournament. No share link, join code or rules: the tournament seated the table, and its
// rules are the tournament's.

import { api } from "./api.js";
import { h } from "./dom.js";
import { language, t } from "./i18n.js";

const POLL_MS = 5000;

function timeOfDay(ms) {
  return new Date(ms).toLocaleTimeString(language() === "da" ? "da-DK" : "en-GB", {
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  });
}

/** The tournament's side of one table's waiting page: `changed` is called when the
 * tournament (its table, a pause) has been read again. */
export function tournamentTable(tournamentId, roomId, changed) {
  let tour = null;
  let timer = null;

  async function load() {
    try {
      tour = await api.getTournament(tournamentId);
      changed();
    } catch {
      // The page still shows the table's seats; the next read may answer.
    }
  }

  function table() {
    for (const round of tour?.roundLog || []) {
      for (const found of round.tables) if (found.roomId === roomId) return { round, table: found };
    }
    return null;
  }

  /** When the table deals, or once its time is past, why it has not (never a past time). */
  function dealText(here) {
    if (!here) return "…";
    if (here.table.trouble) return t("tour.waiting.trouble", { reason: here.table.trouble.reason });
    if (tour.paused) return t("tour.waiting.paused");
    if (Date.now() >= here.table.startAt) return t("tour.waiting.overdue");
    return t("tour.waiting.dealsAt", { time: timeOfDay(here.table.startAt) });
  }

  /** The waiting page: `players` the room's seats (GET /api/rooms/{id}), `you` this
   * page's seat (null: a spectator). */
  function page({ players, you, name, chat }) {
    const here = table();
    const back = `#/tournament/${encodeURIComponent(tournamentId)}`;
    // The round and table stay in sight on a phone: a long tournament name is what gives.
    const title =
      here && tour
        ? [
            h("span", { class: "tour-waiting-name" }, [tour.name]),
            h("span", { class: "tour-waiting-sep" }, [": "]),
            h("span", { class: "tour-waiting-where", "data-testid": "table-where" }, [
              t("tour.waiting.where", { round: here.round.number, table: here.table.number }),
            ]),
          ]
        : name || "";
    const mates = (players || []).slice().sort((a, b) => a.seat - b.seat);
    return h("section", { class: "panel waiting tour-waiting", "aria-labelledby": "waiting-h", "data-testid": "tournament-waiting" }, [
      h("h1", { id: "waiting-h", class: "tour-waiting-title" }, Array.isArray(title) ? title : [title]),
      h("p", { class: "tour-deals", "data-testid": "table-deals-at", role: "status" }, [dealText(here)]),
      h("h2", {}, [t("tour.waiting.mates")]),
      h(
        "ol",
        { class: "seats", "data-testid": "table-mates" },
        mates.map((p) => {
          const present = p.connected !== false || p.bot;
          return h("li", { class: "seat", "data-seat": p.seat, "data-here": present ? "1" : "0" }, [
            h("span", { class: `dot ${present ? "on" : "off"}`, "aria-hidden": "true" }),
            h("span", {}, [
              p.name || `#${p.seat + 1}`,
              p.seat === you ? ` (${t("room.you")})` : "",
              " · ",
              h("span", { class: "muted" }, [present ? t("tour.waiting.here") : t("tour.waiting.notHere")]),
            ]),
          ]);
        }),
      ),
      h("p", { class: "hint" }, [t("tour.waiting.absent")]),
      you === null || you === undefined ? h("p", { class: "muted" }, [t("tour.waiting.watching")]) : null,
      h("a", { class: "button primary", href: back, "data-testid": "waiting-back-to-tournament" }, [t("tour.waiting.back")]),
      chat,
    ]);
  }

  load();
  timer = setInterval(load, POLL_MS);
  return {
    page,
    dispose() {
      clearInterval(timer);
    },
  };
}
