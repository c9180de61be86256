// One tournament (#/tournament/<id>, and #/tournament/<id>/host for its host console):
// registering and checking in, the player's own table, the rounds with a link to watch
// every table, the live standings and the public audit log. The page follows
// /ws/tournaments/<id>: standings come with the socket's `standings` events, and any
// other event has the page read the tournament again (the server says what changed).

import { signedIn } from "./accounts/client.js";
import { showConnection } from "./badge.js";
import { api, ApiError } from "./api.js";
import { h, mount, preservingFocus } from "./dom.js";
import { language, t } from "./i18n.js";
import { accountName, NAME_MAX, showError } from "./lobby.js";
import { storage } from "./storage.js";
import { replayUrl } from "./replay-link.js";
import { hostConsole } from "./tournament-host.js";
import { TournamentFeed } from "./tournament-feed.js";
import { registerFor, statusText } from "./tournaments.js";
import { toast } from "./toast.js";

const RELOAD_DEBOUNCE_MS = 120;

function points(value) {
  return Number(value ?? 0).toLocaleString(language() === "da" ? "da-DK" : "en-GB", {
    maximumFractionDigits: 2,
  });
}

function clock(ms) {
  return new Date(ms).toLocaleTimeString(language() === "da" ? "da-DK" : "en-GB", {
    hour: "2-digit",
    minute: "2-digit",
  });
}

export function showTournament(root, tournamentId, { host = false } = {}) {
  const state = {
    t: null, // the tournament as GET /api/tournaments/{id} shows it
    standings: [],
    seq: 0, // the last event the page has taken
    conn: { state: "connecting" },
    seat: null, // GET .../seat for this player: the table this round
    missing: false,
  };
  const form = { regName: storage.name() };
  let disposed = false;
  let reloadTimer = null;
  // One column below the layout's two (web/css/app.css, .tour-page at 900 px).
  const narrow = window.matchMedia("(max-width: 899px)");
  let seatMoved = false; // a re-seat (or a withdrawal) since the seat was last asked for
  let seatRound = null; // the round the seat was last asked for

  const mine = () => storage.tournament(tournamentId) || {};
  const names = () => new Map((state.t?.players || []).map((p) => [p.playerId, p.name]));
  const me = () => (state.t?.players || []).find((p) => p.playerId === mine().playerId) || null;

  // ---- data ---------------------------------------------------------------------------

  function take(doc) {
    // A REST answer older than what the socket has brought is not shown over it.
    if (!doc || (state.t && Number(doc.seq) < Number(state.t.seq))) return;
    state.t = doc;
    state.missing = false;
    // The player's seat is asked for once a round (and again after a re-seat), not on
    // every change of the tournament.
    if (doc.status === "running" && (seatRound !== doc.round || seatMoved)) refreshSeat();
    else if (doc.status !== "running") state.seat = null;
    seatMoved = false;
    render();
  }

  async function reload() {
    try {
      const doc = await api.getTournament(tournamentId);
      // A late entrant (or a start's dropped players) changes the field without a
      // `standings` event: read the rows again when they no longer match the field.
      if (doc.status !== "registration" && doc.players.length !== state.standings.length) {
        const answer = await api.standings(tournamentId);
        if (Number(doc.seq) >= Number(state.t?.seq ?? 0)) state.standings = answer.rows || [];
      }
      take(doc);
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) {
        state.missing = true;
        render();
      }
    }
  }

  function scheduleReload() {
    clearTimeout(reloadTimer);
    reloadTimer = setTimeout(reload, RELOAD_DEBOUNCE_MS);
  }

  async function refreshSeat() {
    const token = mine().token;
    if (!token || state.t?.status !== "running") {
      state.seat = null;
      return;
    }
    seatRound = state.t.round;
    try {
      state.seat = await api.mySeat(tournamentId, token);
    } catch {
      state.seat = null;
    }
    if (!disposed) render();
  }

  const feed = new TournamentFeed(tournamentId, {
    onSnapshot(tournament, standings, seq) {
      state.seq = seq;
      state.standings = standings;
      state.t = tournament;
      state.missing = false;
      refreshSeat();
      render();
    },
    onEvent(event, seq) {
      state.seq = seq;
      if (event.type === "standings") {
        state.standings = event.rows || [];
        render();
      } else {
        if (["reseated", "withdrawn", "disqualified", "reinstated"].includes(event.type)) seatMoved = true;
        scheduleReload();
      }
    },
    onStatus(status) {
      state.conn = status;
      if (status.state === "failed" && status.code === 4404) state.missing = true;
      renderConn();
    },
  });

  // ---- player actions -----------------------------------------------------------------

  async function register(event) {
    event.preventDefault();
    const name = form.regName.trim() || storage.name();
    try {
      await registerFor(tournamentId, name);
      toast(t("tour.registered"), { code: "registered" });
      await reload();
    } catch (err) {
      showError(err);
    }
  }

  async function checkIn() {
    try {
      take(await api.checkIn(tournamentId, mine().token));
      toast(t("tour.checkedInToast"), { code: "checked_in" });
    } catch (err) {
      showError(err);
    }
  }

  async function withdraw() {
    try {
      take(await api.withdrawTournament(tournamentId, mine().token));
    } catch (err) {
      showError(err);
    }
  }

  function goToTable(event) {
    event.preventDefault();
    const seat = state.seat;
    // The seat token opens the table's room as this player's seat.
    storage.setSeat(seat.roomId, { seat: seat.seat, token: seat.token, name: mine().name || storage.name() });
    location.hash = `#/room/${encodeURIComponent(seat.roomId)}?tournament=${encodeURIComponent(tournamentId)}`;
  }

  // ---- rendering ----------------------------------------------------------------------

  function renderConn() {
    if (!disposed) showConnection(state.conn);
  }

  function head() {
    const tour = state.t;
    const page = `#/tournament/${encodeURIComponent(tournamentId)}`;
    const facts = [
      t("tour.factTables", { n: tour.tableSize }),
      t("tour.factRounds", { n: tour.rounds }),
      t("tour.factDeals", { n: tour.dealsPerRound }),
      t("tour.factTurn", { n: tour.turnSeconds }),
    ];
    return h("section", { class: "panel tour-head", "aria-labelledby": "tour-name" }, [
      h("h1", { id: "tour-name", class: "page-title" }, [host ? t("tour.consoleOf", { name: tour.name }) : tour.name]),
      h(
        "p",
        { class: "tour-status", "data-testid": "tournament-status", "data-status": tour.status, "data-paused": tour.paused ? "1" : "0" },
        [statusText(tour)],
      ),
      h("p", { class: "muted" }, [facts.join(" · ")]),
      h("p", { class: "tour-links" }, [
        h("a", { href: "#/tournaments" }, [t("tour.all")]),
        (mine().hostToken || (tour.hostAccount && signedIn()?.playerId === tour.hostAccount)) && !host
          ? h("a", { href: `${page}/host`, "data-testid": "host-console-link" }, [t("tour.console")])
          : null,
        host ? h("a", { href: page, "data-testid": "tournament-page-link" }, [t("tour.publicPage")]) : null,
        tour.status === "over"
          ? [
              h("a", { href: `/api/tournaments/${encodeURIComponent(tournamentId)}/export.csv`, download: "" }, [
                t("tour.exportCsv"),
              ]),
              h("a", { href: `/api/tournaments/${encodeURIComponent(tournamentId)}/export.json`, download: "" }, [
                t("tour.exportJson"),
              ]),
            ]
          : null,
      ]),
    ]);
  }

  function mePanel() {
    const tour = state.t;
    const player = me();
    const body = [];
    if (!player && tour.registrationOpen) {
      body.push(
        h("form", { class: "inline-form", onSubmit: register }, [
          h("label", { for: "reg-name" }, [t("lobby.name")]),
          h("input", {
            id: "reg-name",
            "data-testid": "register-name",
            "data-focus-key": "reg-name",
            maxlength: NAME_MAX,
            autocomplete: "nickname",
            // Signed in, the account registers under its own name.
            value: accountName() ?? form.regName,
            readonly: Boolean(accountName()),
            "data-account": accountName() ? "true" : null,
            onInput: (e) => {
              form.regName = e.target.value;
            },
          }),
          h("button", { type: "submit", class: "primary", "data-testid": "register" }, [t("tour.register")]),
          h("p", { class: "hint" }, [
            accountName()
              ? t("tour.accountName", { name: accountName() })
              : tour.status === "running"
                ? t("tour.lateHelp")
                : t("tour.registerHelp"),
          ]),
        ]),
      );
    } else if (!player) {
      body.push(h("p", { class: "muted" }, [t("tour.closed")]));
    } else {
      const checkInNow = tour.status === "registration" && tour.checkIn && !player.checkedIn && player.status === "active";
      body.push(
        h("p", { "data-testid": "my-entry", "data-player-status": player.status }, [
          t("tour.youAre", { name: player.name }),
          " ",
          h("span", { class: "badge" }, [playerStatus(player, tour)]),
        ]),
      );
      // Back on the page after a withdrawal: what happened, and that the host can undo it.
      if (player.status === "withdrawn") {
        const absent = (tour.audit || []).filter((a) => a.action === "withdrawn" && a.playerId === player.playerId).pop()?.absent;
        body.push(
          h("p", { class: "notice", role: "status", "data-testid": "withdrawn-note", "data-absent": absent ? "1" : "0" }, [
            absent ? t("tour.youWereAbsent") : t("tour.youWithdrew"),
          ]),
        );
      }
      const actions = [];
      if (checkInNow) {
        actions.push(
          h("button", { type: "button", class: "primary", "data-testid": "check-in", onClick: checkIn }, [t("tour.checkIn")]),
        );
      }
      if (player.status === "active" && tour.status !== "over") {
        actions.push(h("button", { type: "button", "data-testid": "withdraw", onClick: withdraw }, [t("tour.withdraw")]));
      }
      if (actions.length) body.push(h("div", { class: "actions" }, actions));
      const seat = state.seat;
      if (seat && seat.round === tour.round) {
        const table = currentRound()?.tables.find((x) => x.tableId === seat.tableId);
        body.push(
          h("p", { class: "my-table" }, [
            t("tour.yourTable", { round: seat.round, table: table?.number ?? "?" }),
            " ",
            table?.result
              ? h("span", { class: "muted" }, [t("tour.tableDone")])
              : h(
                  "a",
                  { class: "button primary", href: "#", "data-testid": "play-table", onClick: goToTable },
                  [t("tour.playTable")],
                ),
          ]),
        );
      }
    }
    return h("section", { class: "panel", "aria-labelledby": "me-h" }, [
      h("h2", { id: "me-h" }, [t("tour.you")]),
      ...body,
    ]);
  }

  function playerStatus(player, tour) {
    if (player.status !== "active") return t(`tour.status.${player.status}`);
    if (tour.status === "registration" && tour.checkIn) return player.checkedIn ? t("tour.checkedIn") : t("tour.notCheckedIn");
    if (tour.status === "registration") return t("tour.status.registered");
    return t("tour.status.active");
  }

  function currentRound() {
    const log = state.t?.roundLog || [];
    return log.length ? log[log.length - 1] : null;
  }

  function standingsPanel() {
    const tour = state.t;
    if (tour.status === "registration") return null; // the players panel lists the field
    const rows = state.standings;
    const myId = mine().playerId;
    return h("section", { class: "panel", "aria-labelledby": "standings-h" }, [
      h("h2", { id: "standings-h" }, [t("tour.standings")]),
      rows.length
        ? h("div", { class: "table-wrap" }, [
            h("table", { class: "standings", "data-testid": "standings", "data-seq": state.seq }, [
              h("caption", { class: "hint" }, [
                t("tour.tieBreaks", { chain: (tour.tieBreaks || []).map((k) => t(`tour.tb.${k}`)).join(" → ") }),
              ]),
              h("thead", {}, [
                h("tr", {}, [
                  h("th", { scope: "col" }, [h("abbr", { title: t("tour.col.rankLong") }, [t("tour.col.rank")])]),
                  h("th", { scope: "col", class: "name" }, [t("tour.col.name")]),
                  h("th", { scope: "col" }, [h("abbr", { title: t("tour.tb.points") }, [t("tour.col.points")])]),
                  h("th", { scope: "col" }, [h("abbr", { title: t("tour.tb.matesAverage") }, [t("tour.col.mates")])]),
                  h("th", { scope: "col" }, [h("abbr", { title: t("tour.tb.leftInHand") }, [t("tour.col.left")])]),
                  h("th", { scope: "col" }, [h("abbr", { title: t("tour.tb.dealsWon") }, [t("tour.col.won")])]),
                ]),
              ]),
              h(
                "tbody",
                {},
                rows.map((row) =>
                  h(
                    "tr",
                    {
                      "data-testid": "standing-row",
                      "data-player-id": row.playerId,
                      "data-points": row.points,
                      class: [row.playerId === myId ? "me" : "", row.status !== "active" ? "out" : ""].join(" ").trim() || null,
                    },
                    [
                      h("td", {}, [String(row.rank)]),
                      h("th", { scope: "row", class: "name" }, [
                        row.name,
                        row.status !== "active" ? [" ", h("span", { class: "badge" }, [t(`tour.status.${row.status}`)])] : null,
                      ]),
                      h("td", { "data-testid": "standing-points" }, [points(row.points)]),
                      h("td", {}, [points(row.matesAverage)]),
                      h("td", {}, [String(row.leftInHand)]),
                      h("td", {}, [String(row.dealsWon)]),
                    ],
                  ),
                ),
              ),
            ]),
          ])
        : h("p", { class: "muted" }, [t("tour.noPlayers")]),
    ]);
  }

  /** A table not dealt yet: when it deals, or once that time is past, why it has not. */
  function notDealt(table) {
    if (table.trouble) return t("tour.table.trouble");
    if (state.t.paused) return t("tour.table.paused");
    if (Date.now() >= table.startAt) return t("tour.table.waiting");
    return t("tour.table.startsAt", { time: clock(table.startAt) });
  }

  function tableCard(table, round) {
    const who = names();
    const result = table.result ? new Map(table.result.map((s) => [s.pid, s])) : null;
    let status;
    if (table.abandoned) status = t("tour.table.abandoned");
    else if (table.result) status = t("tour.table.done");
    else if (table.started) status = t("tour.table.playing");
    else status = notDealt(table);
    const players = [...table.players];
    if (result) players.sort((a, b) => (result.get(a)?.place ?? 99) - (result.get(b)?.place ?? 99));
    return h("li", { class: "tour-table", "data-testid": "tournament-table", "data-table-id": table.tableId }, [
      h("div", { class: "panel-head" }, [
        h("h4", {}, [t("tour.tableN", { n: table.number })]),
        h("span", { class: "muted", "data-testid": "table-status" }, [status]),
      ]),
      h(
        "ol",
        { class: "tour-seats" },
        players.map((pid) =>
          h("li", {}, [
            result ? h("span", { class: "place" }, [`${result.get(pid)?.place ?? "?"}.`]) : null,
            " ",
            who.get(pid) || pid,
          ]),
        ),
      ),
      table.result && table.matchId
        ? h(
            "a",
            {
              class: "button",
              href: replayUrl(table.matchId),
              "data-testid": "table-replay",
              "data-table-id": table.tableId,
            },
            [t("replay.link")],
          )
        : null,
      table.abandoned || round.done
        ? null
        : h(
            "a",
            {
              class: "button",
              href: `#/room/${encodeURIComponent(table.roomId)}?tournament=${encodeURIComponent(tournamentId)}`,
              "data-testid": "watch-table",
              "data-table-id": table.tableId,
              "aria-label": t("tour.watchTable", { n: table.number }),
            },
            [t("lobby.watch")],
          ),
    ]);
  }

  function roundsPanel() {
    const log = [...(state.t.roundLog || [])].reverse();
    if (!log.length) return null;
    return h("section", { class: "panel", "aria-labelledby": "rounds-h", "data-testid": "rounds" }, [
      h("h2", { id: "rounds-h" }, [t("tour.rounds")]),
      ...log.map((round) =>
        h("div", { class: "tour-round", "data-testid": "round", "data-round": round.number }, [
          h("h3", {}, [
            t("tour.roundN", { n: round.number }),
            round.done ? [" ", h("span", { class: "badge" }, [t("tour.roundDone")])] : null,
          ]),
          h("ul", { class: "tour-tables" }, round.tables.map((table) => tableCard(table, round))),
          round.byes?.length
            ? h("p", { class: "muted", "data-testid": "round-byes" }, [
                t("tour.byes", { names: round.byes.map((pid) => names().get(pid) || pid).join(", ") }),
              ])
            : null,
        ]),
      ),
    ]);
  }

  function playersPanel() {
    const tour = state.t;
    if (tour.status !== "registration") return null;
    return h("section", { class: "panel", "aria-labelledby": "players-h" }, [
      h("h2", { id: "players-h" }, [t("tour.playersTitle", { n: tour.players.length })]),
      tour.players.length
        ? h(
            "ul",
            { class: "tour-players", "data-testid": "tournament-players" },
            tour.players.map((p) =>
              h("li", { "data-player-id": p.playerId }, [
                p.name,
                tour.checkIn ? [" ", h("span", { class: "badge" }, [p.checkedIn ? t("tour.checkedIn") : t("tour.notCheckedIn")])] : null,
              ]),
            ),
          )
        : h("p", { class: "muted" }, [t("tour.noPlayers")]),
    ]);
  }

  function auditText(entry) {
    const who = names();
    switch (entry.action) {
      case "disqualify":
        return t("tour.audit.disqualify", { name: entry.name || who.get(entry.playerId) || "?", reason: entry.reason });
      case "reseat":
        return t("tour.audit.reseat", { a: who.get(entry.playerId) || "?", b: who.get(entry.withPlayerId) || "?" });
      case "correct":
        return t("tour.audit.correct", { table: entry.tableId, reason: entry.reason });
      case "resume":
        return t("tour.audit.resume", { s: Math.round((entry.pausedMs || 0) / 1000) });
      case "start":
        return entry.dropped?.length
          ? t("tour.audit.startDropped", { names: entry.dropped.join(", ") })
          : t("tour.audit.start");
      case "round":
        return t("tour.audit.round", { n: entry.round });
      case "withdrawn":
        return t(entry.absent ? "tour.audit.withdrawnAbsent" : "tour.audit.withdrawn", { name: who.get(entry.playerId) || "?" });
      case "reinstate":
        return t("tour.audit.reinstate", { name: who.get(entry.playerId) || "?" });
      case "end":
        return entry.nobodyLeft ? t("tour.audit.endNobodyLeft") : t("tour.audit.end");
      default:
        return t(`tour.audit.${entry.action}`);
    }
  }

  function auditPanel() {
    const audit = state.t.audit || [];
    if (!audit.length) return null;
    return h("section", { class: "panel", "aria-labelledby": "audit-h" }, [
      h("h2", { id: "audit-h" }, [t("tour.auditTitle")]),
      h(
        "ol",
        { class: "tour-audit", "data-testid": "audit" },
        audit.map((entry) =>
          h("li", { "data-action": entry.action }, [h("time", { class: "muted" }, [clock(entry.at)]), " ", auditText(entry)]),
        ),
      ),
    ]);
  }

  const console_ = host
    ? hostConsole(tournamentId, {
        tournament: () => state.t,
        names,
        taken: take,
        rerender: () => render(),
      })
    : null;

  function render() {
    if (disposed) return;
    renderConn();
    preservingFocus(root, () => {
      if (state.missing) {
        mount(root, [
          h("section", { class: "panel" }, [
            h("p", { role: "alert" }, [t("tour.missing")]),
            h("a", { class: "button", href: "#/tournaments" }, [t("tour.all")]),
          ]),
        ]);
        return;
      }
      if (!state.t) {
        mount(root, [h("p", { class: "muted" }, ["…"])]);
        return;
      }
      const hostPanel = console_ ? console_.panel() : null;
      // On a phone (one column) a player reads the standings first, under the heading;
      // the host's console keeps its place.
      if (!host && narrow.matches) {
        mount(root, [
          h("div", { class: "tour-page" }, [
            h("div", { class: "tour-main" }, [head(), standingsPanel(), mePanel(), roundsPanel()]),
            h("div", { class: "tour-side" }, [playersPanel(), auditPanel()]),
          ]),
        ]);
        return;
      }
      mount(root, [
        h("div", { class: "tour-page" }, [
          h("div", { class: "tour-main" }, [head(), hostPanel, host ? null : mePanel(), roundsPanel()]),
          h("div", { class: "tour-side" }, [standingsPanel(), playersPanel(), auditPanel()]),
        ]),
      ]);
    });
  }

  const onWidth = () => render();
  narrow.addEventListener("change", onWidth);

  render();
  reload();
  feed.connect();

  return {
    dispose() {
      disposed = true;
      narrow.removeEventListener("change", onWidth);
      clearTimeout(reloadTimer);
      feed.close();
    },
    rerender: () => render(),
  };
}
