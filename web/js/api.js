// REST calls (docs/protocol.md). Every failure becomes an ApiError carrying the
// server's machine-readable `code`, so the UI can say what went wrong in words.

import { ApiError } from "uno-client";
import { client } from "./client.js";

export { ApiError };

// Every call is the page's uno-client's own method (one protocol implementation: no
// route is written here); its refusals are the package's ApiError subclasses, with the
// server's code.
export const api = {
  listRooms: (status) => client.listRooms(status),
  getRoom: (roomId) => client.getRoom(roomId),
  roomByCode: (code) => client.roomByCode(code),
  createRoom: (body) => client.createRoom(body),
  /** Take a seat; `accountToken`: the signed-in account's (the seat is the account's). */
  joinRoom: (roomId, body, accountToken) => client.joinRoom(roomId, body, accountToken),
  startRoom: (roomId, hostToken) => client.startRoom(roomId, hostToken),
  kick: (roomId, seat, hostToken) => client.kick(roomId, seat, hostToken),
  /** Host only, before a match: change name, rules, seats, privacy or spectators. */
  changeSettings: (roomId, changes, hostToken) => client.changeSettings(roomId, changes, hostToken),
  leave: (roomId, token) => client.leaveRoom(roomId, token),
  /** Host only, outside a match: seat a bot (a level of GET /api/rules `botLevels`). */
  addBot: (roomId, level, hostToken) => client.addBot(roomId, level, hostToken),
  /** Two seats, the other away: end the match as its winner. */
  claim: (roomId, token) => client.claimWin(roomId, token),
  /** Every rule option (name, kind, default, range or choices, group, help) and preset. */
  ruleOptions: () => client.rules(),
  cards: () => client.cards(),
  /** The beverage table of the drinking rules. */
  drinks: () => client.drinks(),
  /** Host only, any time: mute (or unmute) a seat's chat. */
  mute: (roomId, seat, muted, hostToken) => client.muteSeat(roomId, seat, muted, hostToken),
  /** The current deal's events (a seat's token names its own draws), for the log. */
  events: (roomId, token) => client.roomEvents(roomId, token),
  /** Join the room that has this code (private or public); answers with its roomId. */
  joinByCode: (body, accountToken) => client.joinByCode(body, accountToken),

  // Tournaments (docs/tournaments.md): players act with their tournament token, the host
  // with the tournament's host token.
  listTournaments: () => client.listTournaments(),
  /** `accountToken`: the signed-in account's (it hosts the tournament too). */
  createTournament: (body, accountToken) => client.createTournament(body, accountToken || undefined),
  getTournament: (id) => client.getTournament(id),
  standings: (id) => client.standings(id),
  /** Register; `accountToken`: the signed-in account's (the account registers). */
  registerTournament: (id, name, accountToken) => client.joinTournament(id, { name }, accountToken),
  checkIn: (id, token) => client.checkIn(id, token),
  withdrawTournament: (id, token) => client.withdraw(id, token),
  /** This round's table and seat token of the player with `token`. */
  mySeat: (id, token) => client.tournamentSeat(id, token),
};

/** The room list, whatever envelope the server wraps it in. */
export function roomsOf(data) {
  if (Array.isArray(data)) return data;
  return (data && (data.rooms || data.items)) || [];
}
