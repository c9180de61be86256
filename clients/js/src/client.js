// UnoClient: the server's REST routes, and the factory of its live sockets.

import { apiError, NetworkError } from "./errors.js";
import { LobbyFeed, QuickplayFeed, TournamentFeed } from "./feeds.js";
import { RoomSession } from "./session.js";

const enc = encodeURIComponent;

export class UnoClient {
  /**
   * @param {object} options
   * @param {string} [options.baseUrl] the server, `http(s)://host:port` (in a browser, by
   *   default the page's origin)
   * @param {Function} [options.WebSocket] the WebSocket class (by default the global
   *   one: browsers, React Native, Node 22+; in Node 20, pass the `ws` package's)
   * @param {Function} [options.fetch] the fetch function (by default the global one)
   */
  constructor({ baseUrl, WebSocket, fetch } = {}) {
    const base = baseUrl ?? globalThis.location?.origin;
    if (!base) throw new TypeError("UnoClient needs a baseUrl (http://host:port)");
    this.baseUrl = String(base).replace(/\/+$/, "");
    this.WebSocket = WebSocket ?? globalThis.WebSocket;
    if (typeof this.WebSocket !== "function") {
      throw new TypeError("no global WebSocket here: pass one, e.g. { WebSocket } from the ws package");
    }
    this.fetch = fetch ?? globalThis.fetch?.bind(globalThis);
  }

  /** The socket URL of `path` (`/ws/...`) on this server. */
  socketUrl(path) {
    return this.baseUrl.replace(/^http/, "ws") + path;
  }

  /**
   * One REST call: resolves with the answer's JSON (null for 204), rejects with an
   * ApiError subclass for every refusal.
   */
  async request(method, path, { body, token } = {}) {
    const headers = { Accept: "application/json" };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (token) headers.Authorization = `Bearer ${token}`;
    let response;
    try {
      response = await this.fetch(this.baseUrl + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (err) {
      throw new NetworkError(0, "network", String(err));
    }
    const text = await response.text();
    let data = null;
    try {
      data = text ? JSON.parse(text) : null;
    } catch {
      data = null;
    }
    if (!response.ok) {
      // Errors made by the framework itself put ours under "detail"; accept both shapes.
      const err = (data && (data.code ? data : data.detail)) || {};
      const code = typeof err === "object" && err.code ? err.code : `http_${response.status}`;
      const message = typeof err === "object" ? err.message : String(err);
      const error = apiError(response.status, code, message || text, typeof err === "object" ? err : null);
      if (response.status === 429) {
        const after = Number(response.headers.get("Retry-After"));
        error.retryAfter = Number.isFinite(after) ? after : null;
      }
      throw error;
    }
    return data;
  }

  // ---- rooms ------------------------------------------------------------------------

  /** `GET /api/protocol`: the version, limits and heartbeat. */
  protocol() {
    return this.request("GET", "/api/protocol");
  }

  /** `GET /api/rooms`: the public rooms open to join (`"playing"`: the running ones). */
  listRooms(status) {
    return this.request("GET", status ? `/api/rooms?status=${enc(status)}` : "/api/rooms");
  }

  /** `GET /api/rooms/{roomId}`. */
  getRoom(roomId) {
    return this.request("GET", `/api/rooms/${enc(roomId)}`);
  }

  /** `POST /api/rooms`: `{roomId, code, hostToken}`. */
  createRoom(settings) {
    return this.request("POST", "/api/rooms", { body: settings });
  }

  /** `POST /api/rooms/{roomId}/join`: `{roomId, seat, token, playerId}`. With an
   * account's `accountToken` the seat is the account's (its name and rating). */
  joinRoom(roomId, body, accountToken) {
    return this.request("POST", `/api/rooms/${enc(roomId)}/join`, { body, token: accountToken });
  }

  /** `POST /api/rooms/join`: join the room that has `body.code` (as `joinRoom`). */
  joinByCode(body, accountToken) {
    return this.request("POST", "/api/rooms/join", { body, token: accountToken });
  }

  /** `POST /api/rooms/{roomId}/start` with the host's token: `{seq}`. */
  startRoom(roomId, hostToken) {
    return this.request("POST", `/api/rooms/${enc(roomId)}/start`, { token: hostToken });
  }

  /** `POST /api/rooms/{roomId}/leave` with the seat's token. */
  leaveRoom(roomId, token) {
    return this.request("POST", `/api/rooms/${enc(roomId)}/leave`, { token });
  }

  /** `POST /api/rooms/{roomId}/bots` with the host's token: `{seat}`. */
  addBot(roomId, level, hostToken) {
    return this.request("POST", `/api/rooms/${enc(roomId)}/bots`, { body: { level }, token: hostToken });
  }

  /** `GET /api/rooms/{roomId}/events`: the current deal's events (`token`: a seat's). */
  roomEvents(roomId, token) {
    return this.request("GET", `/api/rooms/${enc(roomId)}/events`, { token });
  }

  /** `GET /api/rooms/code/{code}`: the room that has this join code, as `getRoom`
   * shows it (whether its match has begun, to watch it, before joining). */
  roomByCode(code) {
    return this.request("GET", `/api/rooms/code/${enc(code)}`);
  }

  /** `PATCH /api/rooms/{roomId}` with the host's token, outside a match: change name,
   * rules, seats, privacy, spectators or timers; the room, as `getRoom` shows it. */
  changeSettings(roomId, changes, hostToken) {
    return this.request("PATCH", `/api/rooms/${enc(roomId)}`, { body: changes, token: hostToken });
  }

  /** `POST /api/rooms/{roomId}/kick` with the host's token: the seat's player leaves and
   * their name is banned from the room. */
  kick(roomId, seat, hostToken) {
    return this.request("POST", `/api/rooms/${enc(roomId)}/kick`, { body: { seat }, token: hostToken });
  }

  /** `POST /api/rooms/{roomId}/mute` with the host's token, any time: mute (`muted`
   * false: unmute) a seat's chat and reactions. */
  muteSeat(roomId, seat, muted, hostToken) {
    return this.request("POST", `/api/rooms/${enc(roomId)}/mute`, { body: { seat, muted }, token: hostToken });
  }

  /** `POST /api/rooms/{roomId}/back` with the seat's token: "I'm back", the autopilot
   * gives the away seat back. */
  backToSeat(roomId, token) {
    return this.request("POST", `/api/rooms/${enc(roomId)}/back`, { token });
  }

  /** `POST /api/rooms/{roomId}/claim` with the seat's token: two seats, the other away
   * or left, end the match as its winner. */
  claimWin(roomId, token) {
    return this.request("POST", `/api/rooms/${enc(roomId)}/claim`, { token });
  }

  // ---- reference ----------------------------------------------------------------------

  /** `GET /api/rules`: every rule option and preset, and the lists the server decides
   * (rating pools, bot levels, match-end options). */
  rules() {
    return this.request("GET", "/api/rules");
  }

  /** `GET /api/cards`: every card code of every deck, with its colour, rank and name. */
  cards() {
    return this.request("GET", "/api/cards");
  }

  /** `GET /api/drinks`: the beverage table of the drinking rules. */
  drinks() {
    return this.request("GET", "/api/drinks");
  }

  // ---- tournaments ------------------------------------------------------------------

  /** `GET /api/tournaments`: the newest tournaments, as `getTournament` shows them. */
  listTournaments() {
    return this.request("GET", "/api/tournaments");
  }

  /** `POST /api/tournaments`: `{tournamentId, hostToken}`. With an account's
   * `accountToken` the account hosts it too (its token works as the host token). */
  createTournament(settings, accountToken) {
    return this.request("POST", "/api/tournaments", { body: settings, token: accountToken });
  }

  /** `POST /api/tournaments/{id}/players`: register `{name}`; `{playerId, token}`. With
   * an account's `accountToken` the account registers (its id and name). */
  joinTournament(tournamentId, body, accountToken) {
    return this.request("POST", `/api/tournaments/${enc(tournamentId)}/players`, {
      body,
      token: accountToken,
    });
  }

  /** `GET /api/tournaments/{id}/seat` with a player's token: this round's
   * `{round, tableId, roomId, seat, token, startAt}`. */
  tournamentSeat(tournamentId, token) {
    return this.request("GET", `/api/tournaments/${enc(tournamentId)}/seat`, { token });
  }

  /** `GET /api/tournaments/{id}`. */
  getTournament(tournamentId) {
    return this.request("GET", `/api/tournaments/${enc(tournamentId)}`);
  }

  /** `GET /api/tournaments/{id}/standings`: `{tieBreaks, rows}`. */
  standings(tournamentId) {
    return this.request("GET", `/api/tournaments/${enc(tournamentId)}/standings`);
  }

  /** `POST /api/tournaments/{id}/check-in` with a player's token, while check-in is
   * open: the tournament. */
  checkIn(tournamentId, token) {
    return this.request("POST", `/api/tournaments/${enc(tournamentId)}/check-in`, { token });
  }

  /** `POST /api/tournaments/{id}/withdraw` with a player's token: leave it (kept in the
   * standings as withdrawn); the tournament. */
  withdraw(tournamentId, token) {
    return this.request("POST", `/api/tournaments/${enc(tournamentId)}/withdraw`, { token });
  }

  // ---- a tournament's host console ------------------------------------------------
  // Each with the host token (or the host account's): the tournament as it is after.

  /** `POST /api/tournaments/{id}/check-in/open`: players who do not check in are dropped
   * at the start. */
  openCheckIn(tournamentId, hostToken) {
    return this.#host(tournamentId, "check-in/open", hostToken);
  }

  /** `POST /api/tournaments/{id}/start`: seat round 1. */
  startTournament(tournamentId, hostToken) {
    return this.#host(tournamentId, "start", hostToken);
  }

  /** `POST /api/tournaments/{id}/rounds`: seat the next round (`round`: the one meant,
   * so that a second call for it is refused). */
  nextRound(tournamentId, round, hostToken) {
    return this.#host(tournamentId, "rounds", hostToken, round == null ? undefined : { round });
  }

  /** `POST /api/tournaments/{id}/pause`: every table's clocks stop. */
  pauseTournament(tournamentId, hostToken) {
    return this.#host(tournamentId, "pause", hostToken);
  }

  /** `POST /api/tournaments/{id}/resume`: the tables go on. */
  resumeTournament(tournamentId, hostToken) {
    return this.#host(tournamentId, "resume", hostToken);
  }

  /** `POST /api/tournaments/{id}/reseat`: two players of this round change tables. */
  reseat(tournamentId, playerId, withPlayerId, hostToken) {
    return this.#host(tournamentId, "reseat", hostToken, { playerId, withPlayerId });
  }

  /** `POST /api/tournaments/{id}/players/{playerId}/disqualify`, with the public reason. */
  disqualify(tournamentId, playerId, reason, hostToken) {
    return this.#host(tournamentId, `players/${enc(playerId)}/disqualify`, hostToken, { reason });
  }

  /** `POST /api/tournaments/{id}/players/{playerId}/reinstate`: a withdrawn player plays
   * again from the next round. */
  reinstate(tournamentId, playerId, hostToken) {
    return this.#host(tournamentId, `players/${enc(playerId)}/reinstate`, hostToken);
  }

  /** `PUT /api/tournaments/{id}/tables/{tableId}/result`: replace a table's result,
   * `{result: [{playerId, place, leftInHand, dealsWon}], reason}`. */
  correctResult(tournamentId, tableId, correction, hostToken) {
    const path = `/api/tournaments/${enc(tournamentId)}/tables/${enc(tableId)}/result`;
    return this.request("PUT", path, { body: correction, token: hostToken });
  }

  /** `POST /api/tournaments/{id}/end`: end now; the standings are final. */
  endTournament(tournamentId, hostToken) {
    return this.#host(tournamentId, "end", hostToken);
  }

  #host(tournamentId, action, hostToken, body) {
    return this.request("POST", `/api/tournaments/${enc(tournamentId)}/${action}`, { body, token: hostToken });
  }

  // ---- accounts and ratings ---------------------------------------------------------
  // An account token goes out only in the Authorization header, never in a URL.

  /** `POST /api/accounts`: a new account, signed in: `{playerId, name, token}`. */
  signUp(name, password) {
    return this.request("POST", "/api/accounts", { body: { name, password } });
  }

  /** `POST /api/sessions`: sign in: `{playerId, name, token}`. */
  signIn(name, password) {
    return this.request("POST", "/api/sessions", { body: { name, password } });
  }

  /** `DELETE /api/sessions` with the account token: that token is refused from now on. */
  signOut(token) {
    return this.request("DELETE", "/api/sessions", { token });
  }

  /** `GET /api/me` with the account token: the account's profile. */
  me(token) {
    return this.request("GET", "/api/me", { token });
  }

  /** `GET /api/players/{name}`: a player's public profile. */
  player(name) {
    return this.request("GET", `/api/players/${enc(name)}`);
  }

  /** `GET /api/matches/{matchId}/ratings`: each rated seat's change,
   * `{matchId, rated, seats: [{seat, place, ratingBefore, ratingAfter, games, provisional}]}`
   * (`rated` false until the match is stored and rated, or when it is not rated). */
  matchRatings(matchId) {
    return this.request("GET", `/api/matches/${enc(matchId)}/ratings`);
  }

  /** `GET /api/matches/{matchId}/deals/{deal}/frames`: a finished match's deal frame by
   * frame, `{matchId, deal, deals, players, frames: [{index, seq, seat, action, events,
   * view}]}` (`view.hands`: every seat's hand); `match_in_progress` while it is played. */
  frames(matchId, deal) {
    return this.request("GET", `/api/matches/${enc(matchId)}/deals/${enc(deal)}/frames`);
  }

  /** `GET /api/leaderboard`: `{pool, players}` (`pool` by default `classic`). */
  leaderboard({ pool = "classic", limit } = {}) {
    const query = `pool=${enc(pool)}` + (limit === undefined ? "" : `&limit=${enc(limit)}`);
    return this.request("GET", `/api/leaderboard?${query}`);
  }

  /** `POST /api/quickplay`: queue for one rated deal of `pool`, as the account of `token`
   * or as a guest called `name`: `{ticket}`; watch it with `quickplayFeed(ticket)`. */
  quickplay({ pool, name, token } = {}) {
    const body = { pool };
    if (name !== undefined) body.name = name;
    return this.request("POST", "/api/quickplay", { body, token });
  }

  /** `DELETE /api/quickplay/{ticket}`: leave the queue. */
  leaveQueue(ticket) {
    return this.request("DELETE", `/api/quickplay/${enc(ticket)}`);
  }

  // ---- live sockets -----------------------------------------------------------------

  /** A seat's session of room `roomId` (opened now; `await session.ready`). */
  connect(roomId, token, options) {
    if (!token) throw new TypeError("connect needs a seat token; watch(roomId) to spectate");
    return new RoomSession(this, roomId, token, options).open();
  }

  /** A spectator's session of room `roomId`: the view without hands, no actions. */
  watch(roomId, options) {
    return new RoomSession(this, roomId, null, options).open();
  }

  /** The lobby's live lists of open rooms and running games (`/ws/lobby`). */
  lobby(options) {
    return new LobbyFeed(this, options).open();
  }

  /** A quick-play ticket's wait and its table (`/ws/quickplay?ticket=`). */
  quickplayFeed(ticket, options) {
    return new QuickplayFeed(this, ticket, options).open();
  }

  /** A tournament's live standings and events (`/ws/tournaments/{id}`). */
  tournament(tournamentId, options) {
    return new TournamentFeed(this, tournamentId, options).open();
  }
}
