// One room: the seat list before the start, the table after it, and the socket that
// keeps the view current. Everything shown is re-rendered from `state` on each change.

import { showConnection } from "./badge.js";
import { followShuffle } from "./shuffle.js";
import { api, ApiError } from "./api.js";
import { h, mount, preservingFocus } from "./dom.js";
import { errorText, language, t } from "./i18n.js";
import { accountName, joinRoom, NAME_MAX, showError } from "./lobby.js";
import { RoomSession } from "uno-client";
import { client } from "./client.js";
import { storage } from "./storage.js";
import { closePickers, confirmLeave, pickColor, pickCompanions, pickTarget } from "./pickers.js";
import { loadCatalogue, presetPlayers, rulesEditor, rulesSummary } from "./rules.js";
import { DETAIL_EVENTS, describeEvent } from "./events.js";
import { stampEvents } from "./stamp.js";
import { chatPanel, keepLine } from "./chat.js";
import { attentionTools, notifyTurn, play, signalTurn, soundsFor } from "./attention.js";
import { shareTools } from "./share.js";
import { tournamentTable } from "./tournament-table.js";
import { describePartyEvent } from "./bottle.js";
import { GAME_PHASES, planPlay, renderTable, tickText } from "./table.js";
import { announce, toast } from "./toast.js";

const QUIET_ERRORS = new Set(["entropy_too_late", "entropy_twice"]);

const INFO_REFRESH_MS = 3000;
const COUNTDOWN_MS = 500;
const TURN_TIMERS = ["off", 5, 15, 30, 60, 120];
const ABSENT_AFTER = [10, 30, 60, 120];
const LOG_LIMIT = 200;
const SCROLLERS = [".dock .hand", ".table > .side"];
const PARTY_GAMES = new Set(["rommy", "bottle"]); // their events have sentences of their own

function isMyTurn(view) {
  return Boolean(view && view.you !== null && view.you !== undefined && view.turn === view.you &&
    (view.phase === "playing" || view.phase === "chooseColor"));
}

function isStarted(view, info) {
  if (view && GAME_PHASES.has(view.phase)) return true;
  // Before the socket's first view, the room's REST summary says whether a match is on.
  return !view && Boolean(info && info.status && info.status !== "lobby");
}

export function showRoom(root, roomId, params = {}) {
  const state = {
    creds: storage.seat(roomId) || {},
    info: null, // GET /api/rooms/{id}
    view: null,
    log: [],
    kept: null, // the view of a deal over whose scoreboard this player has not closed
    chat: [], // chat lines and reactions relayed since this page opened
    chatDraft: "",
    conn: { state: "connecting" },
    gone: false,
    seatName: storage.name(),
  };
  let connection = null;
  let infoTimer = null;
  let disposed = false;
  // A tournament's table waits on a page of its own (tournament-table.js).
  const tourTable = params.tournament
    ? tournamentTable(params.tournament, roomId, () => render({ force: true }))
    : null;
  let lastPhase = null;

  // ---- data ---------------------------------------------------------------------------

  async function loadInfo() {
    try {
      state.info = await api.getRoom(roomId);
      state.gone = false;
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) state.gone = true;
    }
    if (!disposed) render();
  }

  // The log after a reload (or a resync): the server's history of the current deal, with
  // whatever this page already shows of the room besides.
  async function loadHistory() {
    const wasEmpty = !state.log.length;
    let answer;
    try {
      answer = await api.events(roomId, state.creds.token || null);
    } catch {
      return; // the log then starts from now, as before
    }
    if (disposed || !answer || !Array.isArray(answer.events)) return;
    const view = state.view;
    const fetched = stampEvents(
      answer.events.map((e) => ({ ...e, _side: e.faceUp ?? undefined })),
      view,
      view,
    );
    let merged;
    if (wasEmpty) {
      merged = [...fetched, ...state.log.filter((e) => (e.seq ?? 0) > answer.seq)];
    } else {
      const seqs = new Set(fetched.filter((e) => e.seq !== undefined && e.seq !== null).map((e) => e.seq));
      const known = new Set(state.log.map((e) => e.seq));
      const missing = fetched.filter((e) => seqs.has(e.seq) && !known.has(e.seq));
      merged = [...state.log, ...missing].sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
    }
    state.log = merged.slice(-LOG_LIMIT);
    render({ force: true });
  }

  function connect() {
    connection?.close();
    const handlers = {
      onView(view, { snapshot } = {}) {
        const wasMine = isMyTurn(state.view);
        const before = state.view;
        const dealtHere = state.dealtOn === before?.deal; // this player pressed "Next deal"
        if (before?.phase === "dealOver" && view && view.deal !== before.deal && GAME_PHASES.has(view.phase) && !dealtHere) {
          state.kept = before; // its scoreboard stays until closed
        } else if (view?.phase === "dealOver" || view?.phase === "matchOver" || !GAME_PHASES.has(view?.phase)) {
          state.kept = null;
        }
        state.view = view;
        if (snapshot && GAME_PHASES.has(view?.phase)) loadHistory();
        followShuffle(view, (msg) => connection?.send(msg));
        render();
        // A new deal: back up from the scoreboard to the new top card.
        if (before && view && view.deal !== before.deal && GAME_PHASES.has(view.phase)) showTopCard();
        const said = state.pendingAnnouncement || [];
        if (!wasMine && isMyTurn(view)) {
          showPlayable();
          said.push(t("table.yourTurn"));
          play("turn");
          notifyTurn();
        }
        signalTurn(isMyTurn(view));
        if (said.length) announce(said.join(". "));
        state.pendingAnnouncement = [];
      },
      onEvents(events) {
        for (const sound of soundsFor(events, state.view?.you)) play(sound);
        state.log.push(...events);
        if (state.log.length > LOG_LIMIT) state.log.splice(0, state.log.length - LOG_LIMIT);
        const ctx = { name, you: state.view?.you };
        state.pendingAnnouncement = events
          .filter((e) => !["connect", "disconnect", "dealerDraw", "watch", "unwatch", "watchers"].includes(e.type) && !DETAIL_EVENTS.has(e.type))
          .map((e) => (PARTY_GAMES.has(state.view?.game) ? describePartyEvent : describeEvent)(e, ctx));
      },
      onChat(message) {
        keepLine(state.chat, message);
        render({ force: true });
      },
      onError(err) {
        // Our shuffle contribution is sent in the background; one that arrives after the
        // deal was dealt (or twice, after a reconnect) is refused, which is no news to the player.
        if (QUIET_ERRORS.has(err.code)) return;
        // A seat removed while its shuffle contribution was on the way: that refusal (no
        // ref: no action of the player's) would come before the socket's close, which
        // says what happened.
        if (err.code === "not_seated" && !err.ref) return;
        toast(errorText(err.code, err.message), { kind: "error", code: err.code });
      },
      onStatus(status) {
        state.conn = status;
        renderConn();
        if (status.state === "failed" && status.code === 4002) {
          // The room ended (nobody was left at it): it is gone.
          state.gone = true;
          state.view = null;
          render({ force: true });
          return;
        }
        if (status.state === "failed" && state.creds.token && [4001, 4401].includes(status.code)) {
          // Our seat is gone (removed by the host, or given up elsewhere): forget its
          // token and stay on as a spectator, who may take a seat again. (Our own
          // leave closes the seat's socket too: leave() says so itself.)
          if (state.leaving) return;
          toast(t("room.kicked"), { kind: "error", code: "kicked" });
          toSpectator();
        }
      },
    };
    connection = new RoomSession(client, roomId, state.creds.token || null);
    connection.on("view", (view, events, change) => {
      // Each event keeps what it meant on the table it happened on (stamp.js).
      const stamped = stampEvents(events, change.previous, view);
      if (stamped.length) handlers.onEvents(stamped.map((e) => ({ ...e, seq: change.seq, ts: change.ts })));
      handlers.onView(view, change);
    });
    connection.on("chat", handlers.onChat);
    connection.on("error", handlers.onError);
    connection.on("status", handlers.onStatus);
    connection.open();
  }

  // Watching from here on: the seat's token is forgotten, and the players' chat goes with
  // it (a spectator's panel is the spectators' own chat).
  function toSpectator() {
    storage.setSeat(roomId, { token: null, seat: null });
    state.creds = storage.seat(roomId) || {};
    state.view = null;
    state.chat = [];
    connect();
    loadInfo();
  }

  async function leave({ ask = false } = {}) {
    if (ask && !(await confirmLeave())) return;
    state.leaving = true;
    try {
      await api.leave(roomId, state.creds.token);
    } catch (err) {
      state.leaving = false;
      toast(errorText(err.code, err.message), { kind: "error", code: err.code });
      return;
    }
    toSpectator();
    state.leaving = false;
    toast(t("room.youLeft"), { code: "left" });
  }

  // The host's bearer: the host token, or once the role passed to this seat, its token.
  function hostBearer() {
    if (state.creds.hostToken) return state.creds.hostToken;
    const hostSeat = state.view?.room?.hostSeat ?? state.info?.hostSeat;
    const you = state.view?.you ?? state.creds.seat;
    return hostSeat !== null && hostSeat !== undefined && hostSeat === you ? state.creds.token : null;
  }

  // Whether this player's "Next deal" deals it: the host's, or anyone's in a room that no
  // seat hosts (the server counts anyone else's as "ready").
  function dealsOn() {
    return Boolean(hostBearer()) || (state.view?.room?.hostSeat ?? null) === null;
  }

  async function roomCall(call) {
    try {
      await call();
    } catch (err) {
      toast(errorText(err.code, err.message), { kind: "error", code: err.code });
      return false;
    }
    return true;
  }

  const seatCtx = {
    back: () => connection?.act({ type: "back" }).catch(() => {}),
    leaveMatch: () => leave({ ask: true }),
    claim: () => roomCall(() => api.claim(roomId, state.creds.token)),
    leaveRoom: async () => {
      await leave();
      location.hash = "#/";
    },
  };

  function chat() {
    const view = state.view;
    const isHost = Boolean(hostBearer());
    const players = view?.players?.length ? view.players : state.info?.players || [];
    const muted = new Set(view?.room?.muted || []);
    const you = view?.you ?? state.creds.seat;
    return chatPanel({
      lines: state.chat,
      name,
      spectator: !state.creds.token,
      draft: state.chatDraft,
      setDraft: (text) => {
        state.chatDraft = text;
      },
      say: (text) => connection?.send({ type: "chat", text }),
      react: (emote) => connection?.send({ type: "react", emote }),
      mutes: isHost
        ? players.filter((p) => p.seat !== you && !p.bot).map((p) => ({ seat: p.seat, name: p.name || `#${p.seat + 1}`, muted: muted.has(p.seat) }))
        : [],
      mute: (seat, on) => roomCall(() => api.mute(roomId, seat, on, hostBearer())),
    });
  }

  async function playAgain() {
    await roomCall(() => api.startRoom(roomId, hostBearer()));
  }

  async function addBot() {
    const level = root.querySelector("[data-testid=bot-level]")?.value || "normal";
    if (await roomCall(() => api.addBot(roomId, level, hostBearer()))) loadInfo();
  }

  async function setTimer(event) {
    const value = event.target.value;
    const turnSeconds = value === "off" ? "off" : Number(value);
    if (await roomCall(() => api.changeSettings(roomId, { turnSeconds }, hostBearer()))) loadInfo();
  }

  async function setAbsent(event) {
    const absentAfter = Number(event.target.value);
    if (await roomCall(() => api.changeSettings(roomId, { absentAfter }, hostBearer()))) loadInfo();
  }

  function send(action) {
    if (!connection || state.view?.you === null || state.view?.you === undefined) {
      toast(errorText("not_seated"), { kind: "error", code: "not_seated" });
      return;
    }
    // Every action answers the table this client showed: one that lost a race to a change
    // it did not see yet is refused as too_late instead of landing on another table.
    // The host's own "Next deal" closes the host's scoreboard; a guest's "ready" does not.
    if (action.type === "nextDeal" && dealsOn()) state.dealtOn = state.view?.deal;
    const moves = state.view?.moves;
    // A refusal is shown by the session's "error" listener.
    connection.act(action.at === undefined && Number.isInteger(moves) ? { ...action, at: moves } : action).catch(() => {});
  }

  function name(seat) {
    const p = state.view?.players?.find((x) => x.seat === seat);
    const fromInfo = state.info?.players?.find?.((x) => x.seat === seat);
    const base = p?.name || fromInfo?.name || `#${Number(seat) + 1}`;
    return seat === state.view?.you ? `${base} (${t("room.you")})` : base;
  }

  // ---- playing a card -----------------------------------------------------------------

  function playCard(code) {
    if (!state.view) return;
    const plan = planPlay(state.view, code);
    if (plan.needs === "color") {
      pickColor(code, (color) => send({ ...plan.action, color }), plan.colors);
    } else if (plan.needs === "companions") {
      pickCompanions(code, plan.companions, (extra, uno) => {
        const cards = [code, ...extra];
        // A play that leaves one card, or none, needs UNO called with it.
        const out = cards.length > 1 && cards.length === (state.view.hand || []).length;
        send({ ...plan.action, cards, ...(uno || out ? { uno: true } : {}) });
      });
    } else if (plan.needs === "target") {
      const view = state.view;
      const others = (view.players || []).filter((p) => plan.targets.includes(p.seat));
      pickTarget(others, name, (target) => send({ ...plan.action, target }));
    } else {
      send(plan.action);
    }
  }

  // ---- rendering ----------------------------------------------------------------------

  // The join code, when this page knows it: from the seat's join, the link's ?code, or
  // (public rooms) the join answer. Never the room id, which is no code.
  function roomCode() {
    return state.info?.code || state.creds.code || params.code || null;
  }

  function shareLink() {
    const code = roomCode();
    return `${location.origin}${location.pathname}#/room/${encodeURIComponent(roomId)}${
      code ? `?code=${encodeURIComponent(code)}` : ""
    }`;
  }

  function renderConn() {
    showConnection(state.conn);
  }

  function renderTopbar() {
    const info = state.info;
    mount(document.getElementById("topbar-room"), [
      // A tournament's table links back to its tournament (the watch links say which).
      params.tournament
        ? h("a", { class: "tool", href: `#/tournament/${encodeURIComponent(params.tournament)}`, "data-testid": "back-to-tournament" }, [
            t("tour.back"),
          ])
        : null,
      h("span", { class: "room-name" }, [info?.name || ""]),
      roomCode()
        ? h("span", { class: "room-code-box" }, [
            h("span", { class: "visually-hidden" }, [`${t("room.code")}: `]),
            h("code", { "data-testid": "room-code", title: t("room.code") }, [roomCode()]),
          ])
        : null,
    ]);
    mount(document.getElementById("topbar-attention"), attentionTools(renderTopbar));
  }

  function seatList() {
    const view = state.view;
    const seats = state.info?.seats ?? view?.players?.length ?? 0;
    const players = view?.players?.length ? view.players : state.info?.players || [];
    const bySeat = new Map(players.map((p) => [p.seat, p]));
    const isHost = Boolean(hostBearer());
    const rows = [];
    for (let seat = 0; seat < seats; seat += 1) {
      const p = bySeat.get(seat);
      // Seats are renumbered when a match starts: the view's `you` is the truth.
      const mine = seat === (view?.you ?? state.creds.seat);
      rows.push(
        h("li", { class: `seat${p ? "" : " empty"}`, "data-seat": seat }, [
          h("span", { class: `dot ${p && p.connected !== false ? "on" : "off"}`, "aria-hidden": "true" }),
          h("span", {}, [
            p ? p.name || `#${seat + 1}` : t("room.emptySeat"),
            p?.bot ? ` (${t("table.bot")})` : "",
            mine ? ` (${t("room.you")})` : "",
          ]),
          isHost && p && !mine
            ? h(
                "button",
                {
                  type: "button",
                  class: "link danger",
                  "data-testid": `kick-${seat}`,
                  onClick: () => kick(seat),
                },
                [t("room.kick", { name: p.name || `#${seat + 1}` })],
              )
            : null,
        ]),
      );
    }
    return { rows, taken: players.length };
  }

  async function kick(seat) {
    try {
      await api.kick(roomId, seat, hostBearer());
      loadInfo();
    } catch (err) {
      toast(errorText(err.code, err.message), { kind: "error", code: err.code });
    }
  }

  // The host's rules editor is built once and kept across redraws (players joining redraw
  // the waiting room), so half-made changes survive until saved.
  let settings = null;
  let catalogue = null;

  function settingsPanel() {
    const rules = state.view?.rules || state.info?.rules;
    if (!rules) return null;
    if (!catalogue) {
      loadCatalogue()
        .then((cat) => {
          catalogue = cat;
          render({ force: true });
        })
        .catch(() => {});
      return null;
    }
    if (!settings) {
      const editor = rulesEditor(catalogue, { ...rules });
      const save = async () => {
        if (!editor.valid()) return;
        const changes = { rules: editor.value() };
        // A preset with fewer seats (UNO Duo) takes the room's seat count down with it.
        const [low, high] = editor.players();
        const seats = state.info?.seats;
        if (seats && (seats > high || seats < low)) changes.seats = Math.min(high, Math.max(low, seats));
        try {
          await api.changeSettings(roomId, changes, hostBearer());
          toast(t("room.saved"), { code: "saved" });
          loadInfo();
        } catch (err) {
          toast(errorText(err.code, err.message), { kind: "error", code: err.code });
        }
      };
      settings = h("section", { class: "settings", "data-testid": "settings", "aria-labelledby": "settings-h" }, [
        h("h2", { id: "settings-h" }, [t("room.changeRules")]),
        editor.element,
        // Always in reach while the options are: it sticks to the screen's bottom edge.
        h("div", { class: "save-bar" }, [
          h("button", { type: "button", class: "primary", "data-testid": "save-rules", onClick: save }, [
            t("room.saveRules"),
          ]),
        ]),
      ]);
    }
    return settings;
  }

  async function start() {
    try {
      await api.startRoom(roomId, hostBearer());
    } catch (err) {
      toast(errorText(err.code, err.message), { kind: "error", code: err.code });
    }
  }

  async function takeSeat(event) {
    event.preventDefault();
    const form = event.target;
    // Signed in, the seat is the account's and has its name.
    const signed = accountName();
    const playerName = signed || form.elements.name.value.trim() || storage.name();
    if (!playerName) {
      toast(t("lobby.needName"), { kind: "error", code: "need_name" });
      return;
    }
    if (!signed) storage.setName(playerName);
    const code = form.elements.code?.value.trim() || params.code || state.creds.code || null;
    try {
      await joinRoom(roomId, playerName, code);
      state.creds = storage.seat(roomId) || {};
      connect(); // again, now with the seat's token
      loadInfo();
    } catch (err) {
      showError(err);
    }
  }

  function botPicker() {
    if (!catalogue) return null; // its levels come with the rules (GET /api/rules)
    return h("div", { class: "inline-form", "data-testid": "bots" }, [
      h("label", { for: "bot-level" }, [t("room.botLevel")]),
      h(
        "select",
        { id: "bot-level", "data-testid": "bot-level", "data-focus-key": "bot-level" },
        catalogue.botLevels.map((level) => h("option", { value: level, selected: level === "normal" }, [t(`room.level.${level}`)])),
      ),
      h("button", { type: "button", "data-testid": "add-bot", onClick: addBot }, [t("room.addBot")]),
    ]);
  }

  function timerPicker() {
    const now = state.info?.turnSeconds ?? "off";
    return h("div", { class: "inline-form" }, [
      h("label", { for: "turn-seconds" }, [t("room.turnTimer")]),
      h(
        "select",
        { id: "turn-seconds", "data-testid": "turn-seconds", onChange: setTimer },
        TURN_TIMERS.map((v) =>
          h("option", { value: String(v), selected: String(v) === String(now) }, [
            v === "off" ? t("room.timerOff") : t("table.countdown", { s: v }),
          ]),
        ),
      ),
      h("label", { for: "absent-after" }, [t("room.absentAfter")]),
      h(
        "select",
        { id: "absent-after", "data-testid": "absent-after", onChange: setAbsent },
        ABSENT_AFTER.map((v) =>
          h("option", { value: String(v), selected: v === (state.info?.absentAfter ?? 30) }, [
            t("table.countdown", { s: v }),
          ]),
        ),
      ),
    ]);
  }

  // The turn time and the time bank apart, as the table will count them.
  function timerSummary() {
    const info = state.info;
    if (!info) return null;
    const turn = info.turnSeconds;
    const text =
      turn === "off" || !turn
        ? t("room.timerSummaryOff")
        : info.timeBank
          ? t("room.timerSummary", { s: turn, bank: info.timeBank })
          : t("room.timerSummaryNoBank", { s: turn });
    return h("p", { class: "muted", "data-testid": "timer-summary" }, [
      text,
      " · ",
      t("room.absentSummary", { s: info.absentAfter ?? 30 }),
    ]);
  }


  function seatForm() {
    const signed = accountName();
    return h("form", { class: "inline-form take-seat", onSubmit: takeSeat, "data-testid": "take-seat" }, [
      h("label", { for: "seat-name" }, [t("lobby.name")]),
      h("input", {
        id: "seat-name",
        name: "name",
        value: signed ?? state.seatName,
        readonly: Boolean(signed),
        "data-testid": "seat-name",
        "data-account": signed ? "true" : null,
        maxlength: NAME_MAX,
        autocomplete: "nickname",
        "aria-describedby": "seat-name-help",
        "data-focus-key": "seat-name",
        onInput: (e) => {
          state.seatName = e.target.value;
        },
      }),
      h("span", { class: "hint", id: "seat-name-help" }, [
        signed ? t("lobby.accountName", { name: signed }) : t("lobby.nameHelp", { n: NAME_MAX }),
      ]),
      state.info?.private && !params.code
        ? [
            h("label", { for: "seat-code" }, [t("lobby.code")]),
            h("input", { id: "seat-code", name: "code", autocomplete: "off" }),
          ]
        : null,
      h("button", { type: "submit", class: "primary big", "data-testid": "join" }, [t("room.takeSeat")]),
    ]);
  }

  function hostName() {
    const info = state.info;
    const host = (info?.players || []).find((p) => p.seat === info?.hostSeat);
    return host?.name || null;
  }

  // The host's invitation: the code, the link, its copy button and QR code.
  function sharePanel() {
    const link = shareLink();
    return h("div", { class: "share-box" }, [
      h("p", { class: "share" }, [
        roomCode() ? [t("room.share"), " ", h("code", { class: "big-code", "data-testid": "share-code" }, [roomCode()]), h("br")] : null,
        h("a", { href: link, class: "share-link", "data-testid": "share-link" }, [link]),
      ]),
      shareTools(link),
    ]);
  }

  // Whoever opened an invitation reads whose table it is and sits down first; the host
  // shares the invitation and sets the table up; everyone reads the seats and the rules.
  function waitingRoom() {
    const { rows, taken } = seatList();
    const seated = Boolean(state.creds.token);
    const isHost = Boolean(hostBearer());
    const rules = state.info?.rules || state.view?.rules;
    const seats = state.info?.seats ?? 0;
    const canSit = !seated && (!seats || taken < seats);
    const host = hostName();
    const title = canSit ? (host ? t("room.joinTable", { name: host }) : t("room.joinThis")) : state.info?.name || t("room.seats");
    return h("section", { class: `panel waiting${canSit ? " invited" : ""}`, "aria-labelledby": "waiting-h" }, [
      h("h1", { id: "waiting-h" }, [title]),
      canSit && state.info?.name ? h("p", { class: "muted room-title" }, [state.info.name]) : null,
      canSit ? seatForm() : null,
      isHost ? sharePanel() : null,
      seated && !isHost ? h("p", { class: "muted", role: "status" }, [t("room.waitingHost")]) : null,
      timerSummary(),
      // Every seat reads the rules in force, not only the host in the editor.
      rules && catalogue ? rulesSummary(catalogue, rules) : null,
      h("h2", {}, [t("room.seats")]),
      h("ol", { class: "seats", "data-testid": "seats-list" }, rows),
      isHost
        ? h(
            "button",
            { type: "button", class: "primary big", "data-testid": "start", onClick: start },
            [t("room.start")],
          )
        : null,
      // The fewest players the room's preset seats (GET /api/rules `presetFacts`).
      isHost && rules && catalogue && taken < presetPlayers(catalogue, rules.preset)[0]
        ? h("p", { class: "hint", "data-testid": "need-players" }, [
            t("room.needPlayers", { n: presetPlayers(catalogue, rules.preset)[0] }),
          ])
        : null,
      isHost && taken < seats ? botPicker() : null,
      isHost ? timerPicker() : null,
      isHost ? settingsPanel() : null,
      seated
        ? h("button", { type: "button", class: "link", "data-testid": "leave", onClick: leave }, [t("room.leave")])
        : null,
      !seated ? h("p", { class: "muted" }, [t("room.watching")]) : null,
      chat(),
    ]);
  }

  // What the screen shows is a function of these; the room summary is polled every few
  // seconds, and redrawing an unchanged waiting room would wipe a name being typed.
  let lastSignature = null;

  function render({ force = false } = {}) {
    if (disposed) return;
    const signature = JSON.stringify([state.view, state.info, state.creds, state.gone, language()]);
    if (!force && signature === lastSignature) return;
    lastSignature = signature;
    renderTopbar();
    renderConn();
    preservingFocus(root, () => {
      if (state.gone && !state.view) {
        mount(root, [
          h("section", { class: "panel" }, [
            h("p", { role: "alert" }, [t("room.gone")]),
            h("a", { class: "button", href: "#/" }, [t("summary.backToLobby")]),
          ]),
        ]);
        return;
      }
      if (!isStarted(state.view, state.info) || !state.view) {
        mount(root, [
          tourTable
            ? tourTable.page({
                players: state.view?.players?.length ? state.view.players : state.info?.players || [],
                you: state.creds.token ? (state.view?.you ?? state.creds.seat) : null,
                name: state.info?.name,
                chat: chat(),
              })
            : waitingRoom(),
        ]);
        return;
      }
      keepingScroll(() => mount(root, [
        renderTable(state.view, {
          name,
          send,
          playCard,
          log: state.log,
          you: state.view.you,
          ...(state.creds.token ? seatCtx : {}),
          playAgain: hostBearer() ? playAgain : null,
          isHost: dealsOn(),
          keptSummary: state.kept,
          catalogue,
          chat: chat(),
          closeSummary: () => {
            state.kept = null;
            render({ force: true });
          },
        }),
      ]));
    });
    // Move focus to the summary when a deal ends, so screen readers read the result.
    const phase = state.view?.phase;
    if (phase !== lastPhase && (phase === "dealOver" || phase === "matchOver")) {
      // The summary heads the page (the table folds away on a phone): show it from its top.
      root.querySelector("#summary-h")?.focus({ preventScroll: true });
      window.scrollTo({ top: 0, behavior: "instant" });
    }
    lastPhase = phase;
    // Stop polling the room once the socket view carries the game.
    if (isStarted(state.view, state.info) && infoTimer) {
      clearInterval(infoTimer);
      infoTimer = null;
    }
  }

  // Boxes that scroll on their own (a phone's hand row, the chat and log column) keep
  // their place across a redraw.
  function keepingScroll(draw) {
    const kept = SCROLLERS.map((sel) => root.querySelector(sel)).map((el) => el && [el.scrollLeft, el.scrollTop]);
    draw();
    SCROLLERS.forEach((sel, i) => {
      const el = root.querySelector(sel);
      if (el && kept[i]) [el.scrollLeft, el.scrollTop] = kept[i];
    });
  }

  // The turn begins: a hand row wider than the screen scrolls to its first playable card.
  function showPlayable() {
    const row = root.querySelector(".dock .hand");
    const first = row?.querySelector('[data-playable="true"]');
    if (!first || row.scrollWidth <= row.clientWidth) return;
    const box = row.getBoundingClientRect();
    const at = first.getBoundingClientRect();
    if (at.left < box.left || at.right > box.right) row.scrollLeft += at.left - box.left - 8;
  }

  function showTopCard() {
    const top = root.querySelector('[data-testid="top-card"]');
    if (!top) return;
    window.scrollTo({ top: 0, behavior: "instant" });
    // On a tall page the pile may still be below the fold (a long opponents list).
    if (top.getBoundingClientRect().bottom > window.innerHeight) top.scrollIntoView({ block: "center", behavior: "instant" });
  }

  // Keyboard shortcuts for the common actions; ignored while typing in a field.
  function onKey(e) {
    if (e.target.closest?.("input, select, textarea, dialog") || e.ctrlKey || e.metaKey || e.altKey) return;
    const view = state.view;
    if (!view || !GAME_PHASES.has(view.phase)) return;
    const key = e.key.toLowerCase();
    // The party games' tables send only what `legal` allows, so their keys press buttons:
    // Bottle UNO's T turns a card (to the receiver chosen), Rommy's D draws from the stock.
    const party = { bottle: { t: "bottle-turn" }, rommy: { d: "rommy-stock" } }[view.game];
    if (party) {
      if (!party[key]) return;
      document.querySelector(`[data-testid="${party[key]}"]`)?.click();
      e.preventDefault();
      return;
    }
    if (key === "d") send({ type: "draw" });
    else if (key === "p") send({ type: "pass" });
    else if (key === "u") send({ type: "callUno" });
    else return;
    e.preventDefault();
  }

  // Countdowns tick between changes without redrawing the table.
  const countdown = setInterval(() => {
    for (const el of root.querySelectorAll("[data-tick]")) el.textContent = tickText(el.dataset);
  }, COUNTDOWN_MS);

  document.addEventListener("keydown", onKey);
  // The option list names the rules in force for everyone (and feeds the host's editor).
  loadCatalogue()
    .then((cat) => {
      catalogue = cat;
      if (!disposed) render({ force: true });
    })
    .catch(() => {});
  render();
  loadInfo();
  connect();
  infoTimer = setInterval(loadInfo, INFO_REFRESH_MS);

  return {
    dispose() {
      disposed = true;
      tourTable?.dispose();
      signalTurn(false);
      clearInterval(infoTimer);
      clearInterval(countdown);
      document.removeEventListener("keydown", onKey);
      connection?.close();
      closePickers();
    },
    rerender: () => {
      settings = null; // rebuilt in the new language
      render({ force: true });
    },
  };
}
