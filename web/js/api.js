// REST calls (docs/protocol.md). Every failure becomes an ApiError carrying the
// server's machine-readable `code`, so the UI can say what went wrong in words.

import { ApiError } from "uno-client";
import { client } from "./client.js";

export { ApiError };

// Every call goes through the page's uno-client (one protocol implementation): the
// package's own method where it wraps the route, else its `request`; its refusals are
// the package's ApiError subclasses, with the server's code.
const request = (method, path, options) => client.request(method, path, options);

export const api = {
  listRooms: (status) => client.listRooms(status),
  getRoom: (roomId) => client.getRoom(roomId),
  roomByCode: (code) => request("GET", `/api/rooms/code/${encodeURIComponent(code)}`),
  createRoom: (body) => client.createRoom(body),
  /** Take a seat; `accountToken`: the signed-in account's (the seat is the account's). */
  joinRoom: (roomId, body, accountToken) => client.joinRoom(roomId, body, accountToken),
  startRoom: (roomId, hostToken) => client.startRoom(roomId, hostToken),
  kick: (roomId, seat, hostToken) =>
    request("POST", `/api/rooms/${encodeURIComponent(roomId)}/kick`, {
      body: { seat },
      token: hostToken,
    }),
  /** Host only, before a match: change name, rules, seats, privacy or spectators. */
  changeSettings: (roomId, changes, hostToken) =>
    request("PATCH", `/api/rooms/${encodeURIComponent(roomId)}`, { body: changes, token: hostToken }),
  leave: (roomId, token) => client.leaveRoom(roomId, token),
  /** Host only, outside a match: seat a bot (a level of GET /api/rules `botLevels`). */
  addBot: (roomId, level, hostToken) => client.addBot(roomId, level, hostToken),
  /** "I'm back": the autopilot gives this seat back. */
  back: (roomId, token) => request("POST", `/api/rooms/${encodeURIComponent(roomId)}/back`, { token }),
  /** Two seats, the other away: end the match as its winner. */
  claim: (roomId, token) => request("POST", `/api/rooms/${encodeURIComponent(roomId)}/claim`, { token }),
  /** Every rule option (name, kind, default, range or choices, group, help) and preset. */
  ruleOptions: () => request("GET", "/api/rules"),
  cards: () => request("GET", "/api/cards"),
  /** The beverage table of the drinking rules. */
  drinks: () => request("GET", "/api/drinks"),
  /** Host only, any time: mute (or unmute) a seat's chat. */
  mute: (roomId, seat, muted, hostToken) =>
    request("POST", `/api/rooms/${encodeURIComponent(roomId)}/mute`, { body: { seat, muted }, token: hostToken }),
  /** The current deal's events (a seat's token names its own draws), for the log. */
  events: (roomId, token) => client.roomEvents(roomId, token),
  /** Join the room that has this code (private or public); answers with its roomId. */
  joinByCode: (body, accountToken) => client.joinByCode(body, accountToken),

  // Tournaments (docs/tournaments.md): players act with their tournament token, the host
  // with the tournament's host token.
  listTournaments: () => request("GET", "/api/tournaments"),
  /** `accountToken`: the signed-in account's (it hosts the tournament too). */
  createTournament: (body, accountToken) => request("POST", "/api/tournaments", { body, token: accountToken || undefined }),
  getTournament: (id) => client.getTournament(id),
  standings: (id) => client.standings(id),
  /** Register; `accountToken`: the signed-in account's (the account registers). */
  registerTournament: (id, name, accountToken) => client.joinTournament(id, { name }, accountToken),
  checkIn: (id, token) => request("POST", `/api/tournaments/${encodeURIComponent(id)}/check-in`, { token }),
  withdrawTournament: (id, token) =>
    request("POST", `/api/tournaments/${encodeURIComponent(id)}/withdraw`, { token }),
  /** This round's table and seat token of the player with `token`. */
  mySeat: (id, token) => client.tournamentSeat(id, token),
  /** A host action: `path` is "start", "pause", "rounds", "check-in/open", ... */
  hostTournament: (id, path, hostToken, body) =>
    request("POST", `/api/tournaments/${encodeURIComponent(id)}/${path}`, { body, token: hostToken }),
  correctResult: (id, tableId, body, hostToken) =>
    request("PUT", `/api/tournaments/${encodeURIComponent(id)}/tables/${encodeURIComponent(tableId)}/result`, {
      body,
      token: hostToken,
    }),
};

/** The room list, whatever envelope the server wraps it in. */
export function roomsOf(data) {
  if (Array.isArray(data)) return data;
  return (data && (data.rooms || data.items)) || [];
}
