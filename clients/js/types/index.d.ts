// The API of uno-client (README.md). The wire types (views, actions, events, messages)
// are generated from docs/schemas/ into protocol.d.ts.

import type {
  AckMessage,
  Action,
  ChatSaid,
  ErrorMessage,
  Event,
  LegalEntry,
  LobbyChange,
  ReactionSent,
  RoomSummary,
  View,
} from "./protocol.js";

export * from "./protocol.js";

export declare const PROTOCOL: "uno.v1";

/** Anything with the browser's WebSocket constructor: the global one, or `ws`'s. */
export type WebSocketClass = new (url: string, protocols?: string | string[]) => any;

export interface UnoClientOptions {
  /** `http(s)://host:port`; in a browser, the page's origin by default. */
  baseUrl?: string;
  /** The WebSocket class; by default the global one (pass `ws`'s in Node 20). */
  WebSocket?: WebSocketClass;
  /** The fetch function; by default the global one. */
  fetch?: typeof fetch;
}

export interface SocketOptions {
  /** Reconnect waits in ms (with ±25 % jitter), the last repeated. */
  backoff?: number[];
}

export interface SessionOptions extends SocketOptions {
  /** How long an unanswered action is sent again on reconnects before `act` rejects
   * with `unanswered` (ms, default 15000). */
  resendWindowMs?: number;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string | null;
}

/** A room's rules: a preset and options (docs/rules.md). */
export interface Rules {
  preset?: string;
  [option: string]: unknown;
}

export interface CreateRoom {
  name: string;
  rules?: Rules;
  seats?: number;
  private?: boolean;
  spectators?: boolean;
  nextDealDelay?: number;
  fairRaces?: boolean;
  turnSeconds?: number | "off";
  timeBank?: number;
  absentAfter?: number;
}

export interface CreatedRoom {
  roomId: string;
  code: string;
  hostToken: string;
}

export interface JoinRoom {
  name: string;
  code?: string;
  ageConfirmed?: boolean;
}

export interface JoinedSeat {
  roomId: string;
  seat: number;
  token: string;
  playerId: string;
}

/** What `changeSettings` may change (host only, outside a match). */
export type RoomSettings = Partial<
  Pick<
    CreateRoom,
    "name" | "rules" | "seats" | "private" | "spectators" | "nextDealDelay" | "fairRaces" | "turnSeconds" | "timeBank" | "absentAfter"
  >
>;

/** `GET /api/rules`: every option and preset, and the lists the server decides. */
export interface RuleCatalogue {
  options: { name: string; kind: string; default: unknown; group?: string; help?: string; [key: string]: unknown }[];
  presets: Record<string, Record<string, unknown>>;
  presetFacts: Record<string, Record<string, unknown>>;
  ratingPools: Partial<Record<Pool, string[]>>;
  botLevels: ("easy" | "normal" | "hard")[];
  matchEndOptions: string[];
}

/** `GET /api/cards`: every deck's card codes, and the cards rule options add. */
export interface CardTable {
  colors: Record<string, string>;
  sideColors: Record<string, string[]>;
  decks: {
    name: string;
    help: string;
    size: number;
    cards: CardFace[];
    /** UNO Flip: the light and the dark faces (null for the other decks). */
    light: CardFace[] | null;
    dark: CardFace[] | null;
  }[];
  /** Cards a rule option adds (`option`: the option whose value is the number added). */
  extras: (Omit<CardFace, "count"> & { option: string })[];
}

/** One card face: `color` is null for a wild. */
export interface CardFace {
  code: string;
  name: string;
  color: string | null;
  rank: string;
  wild: boolean;
  count: number;
}

/** `GET /api/drinks`: the beverage table a sip is measured against. */
export interface Drinks {
  beverages: Record<string, any>[];
  shot: { volumeCl: number; abv: number };
  lowStrength: string;
}

/** A table's corrected result (`correctResult`), with the reason the audit log shows. */
export interface Correction {
  result: { playerId: string; place: number; leftInHand?: number; dealsWon?: number }[];
  reason: string;
}

export interface CreateTournament {
  name: string;
  rules?: Rules;
  tableSize?: number;
  rounds: number;
  dealsPerRound?: number;
  turnSeconds: number;
  tableStartSeconds?: number;
  /** The tables are rated rooms: their matches rate the seats of accounts. */
  rated?: boolean;
}

export interface StandingsRow {
  rank: number;
  playerId: string;
  name: string;
  status: string;
  points: number;
  [key: string]: unknown;
}

/** A tournament as `GET /api/tournaments/{id}` shows it (docs/protocol.md). */
export interface Tournament {
  tournamentId: string;
  name: string;
  status: "registration" | "running" | "over";
  /** The round playing or last played (0 before the start), of `rounds`. */
  round: number;
  rounds: number;
  checkIn: boolean;
  paused: boolean;
  /** The host's account, when a signed-in host made it. */
  hostAccount: string | null;
  players: { playerId: string; name: string; status: string; checkedIn: boolean; [key: string]: unknown }[];
  roundLog: { number: number; done: boolean; tables: TournamentTable[]; [key: string]: unknown }[];
  /** The host's actions and the withdrawals, each `{at, action, ...}`. */
  audit: { at: number; action: string; [key: string]: unknown }[];
  [key: string]: unknown;
}

export interface TournamentTable {
  tableId: string;
  number: number;
  roomId: string;
  players: string[];
  started: boolean;
  result: Record<string, unknown>[] | null;
  [key: string]: unknown;
}

/** A tournament event (docs/tournaments.md, "Live"). */
export interface TournamentEvent {
  type: string;
  [key: string]: unknown;
}

export interface Ack {
  ref: string;
  seq: number;
}

export interface ViewChange {
  seq: number;
  /** The server's clock (ms since the epoch) when the change was applied. */
  ts: number | null;
  /** True when the view came whole (the first one, or a resync), not as a patch. */
  snapshot: boolean;
  /** The view before this change (null before the first). */
  previous: View | null;
}

export interface SocketStatus {
  state: "connecting" | "online" | "offline" | "failed";
  /** offline: ms until the next attempt. */
  retryIn?: number;
  code?: number;
  reason?: string;
}

type Listener<A extends unknown[]> = (...args: A) => void;

/** A socket kept open (reconnecting with backoff) until `close()`. */
export declare class LiveSocket {
  state: "idle" | SocketStatus["state"] | "closed";
  on(type: "status", listener: Listener<[SocketStatus]>): () => void;
  off(type: string, listener: (...args: any[]) => void): void;
  /** Open the socket (the client's `connect`, `watch`, `lobby` and `tournament` do). */
  open(): this;
  /** Send one message; false when the socket is not open. */
  send(message: object): boolean;
  /** Cut the socket as a network would; it reconnects and resumes. */
  drop(): void;
  /** Stop for good. */
  close(): void;
}

export declare class RoomSession extends LiveSocket {
  constructor(client: UnoClient, roomId: string, token?: string | null, options?: SessionOptions);
  readonly roomId: string;
  readonly token: string | null;
  /** The latest view; equal to what a fresh snapshot would show at `seq`. */
  view: View | null;
  seq: number | null;
  /** How many times the socket was lost and opened again. */
  reconnects: number;
  /** Resolves with the first view; rejects with a SocketError if the server refuses. */
  ready: Promise<View>;
  readonly you: number | null;
  readonly legal: LegalEntry[];
  on(type: "view", listener: Listener<[View, Event[], ViewChange]>): () => void;
  on(type: "error", listener: Listener<[SocketError]>): () => void;
  on(type: "ack", listener: Listener<[AckMessage]>): () => void;
  on(type: "chat", listener: Listener<[ChatSaid | ReactionSent]>): () => void;
  on(type: "status", listener: Listener<[SocketStatus]>): () => void;
  /** Resolves on the action's ack; rejects with a SocketError (`code`) on refusal. */
  act(action: Action, options?: { id?: string }): Promise<Ack>;
  /** Feed one server message as if it came on the socket. */
  handle(message: { type: string; [key: string]: unknown }): void;
}

export declare class LobbyFeed extends LiveSocket {
  constructor(client: UnoClient, options?: SocketOptions);
  /** The public rooms open to join, oldest first. */
  readonly rooms: RoomSummary[];
  /** The running public games, oldest first. */
  readonly playing: RoomSummary[];
  /** The socket is open and a snapshot came on it: the lists are current. */
  readonly live: boolean;
  ready: Promise<RoomSummary[]>;
  on(type: "rooms", listener: Listener<[RoomSummary[], LobbyChange[] | null]>): () => void;
  on(type: "playing", listener: Listener<[RoomSummary[], LobbyChange[] | null]>): () => void;
  /** Once per snapshot or change, after both lists took it. */
  on(type: "lobby", listener: Listener<[RoomSummary[], RoomSummary[]]>): () => void;
  on(type: "error", listener: Listener<[ErrorMessage]>): () => void;
  on(type: "status", listener: Listener<[SocketStatus]>): () => void;
}

export declare class TournamentFeed extends LiveSocket {
  constructor(client: UnoClient, tournamentId: string, options?: SocketOptions);
  readonly tournamentId: string;
  tournament: Tournament | null;
  standings: StandingsRow[];
  seq: number | null;
  ready: Promise<Tournament>;
  on(type: "snapshot", listener: Listener<[Tournament, StandingsRow[], number]>): () => void;
  on(type: "event", listener: Listener<[TournamentEvent, number]>): () => void;
  on(type: "standings", listener: Listener<[StandingsRow[]]>): () => void;
  on(type: "error", listener: Listener<[ErrorMessage]>): () => void;
  on(type: "status", listener: Listener<[SocketStatus]>): () => void;
}

/** A signed-in account: the token is sent only as `Authorization: Bearer`. */
export interface Account {
  playerId: string;
  name: string;
  token: string;
}

export type Pool = "classic" | "duo" | "flip" | "party";

export interface Rating {
  value: number;
  provisional: boolean;
  games: number;
}

export interface Me {
  playerId: string;
  name: string;
  created: string;
  ratings: Partial<Record<Pool, Rating>>;
}

export interface PlayerProfile {
  name: string;
  ratings: Partial<Record<Pool, Rating>>;
  stats: { matches: number; wins: number; placings: Record<string, number>; deals: number; cardsPlayed: number };
  recent: Record<string, unknown>[];
}

/** A rated seat's change in one match (`provisional`: the rating after it). */
export interface RatingChange {
  seat: number;
  place: number;
  ratingBefore: number;
  ratingAfter: number;
  games: number;
  provisional: boolean;
}

/** `rated` is false until the match is stored and rated, or when it is not rated. */
export interface MatchRatings {
  matchId: string;
  rated: boolean;
  seats: RatingChange[];
}

/** One step of a finished deal: the start (`index` 0, no action) or one action. */
export interface Frame {
  index: number;
  seq: number | null;
  seat: number | null;
  action: Record<string, any> | null;
  /** The step's events, private parts included (the match is over). */
  events: Record<string, any>[];
  /** The table as an all-seeing spectator sees it: `hands` holds every seat's hand. */
  view: Record<string, any> & { hands: string[][] };
}

export interface DealFrames {
  matchId: string;
  deal: number;
  /** The match's deal numbers. */
  deals: number[];
  players: { seat: number; playerId: string | null; name: string; total: number | null }[];
  rules: Record<string, any> | null;
  scores: (number | null)[];
  totals: number[];
  winner: number | null;
  matchOver: boolean;
  /** The start state's shuffle proof (`serverSeed`, `commitment`, `entropy`). */
  shuffle: Record<string, any> | null;
  /** What `python -m engine.verify` finds of the deal: each check's "ok" or why not. */
  checks: Record<string, string>;
  replay: { consistent: boolean; error: { index: number | null; code: string; message: string } | null };
  frames: Frame[];
}

/** Every account with a rated game in the pool, by OpenSkill's ordinal (mu - 3 sigma);
 * a provisional rating is shown with a "?". */
export interface Leaderboard {
  pool: Pool;
  players: { rank: number; name: string; value: number; provisional: boolean; games: number }[];
}

/** A quick-play ticket's wait, pushed every second. */
export interface QuickplayWait {
  waitedSeconds: number;
  searching: boolean;
  gap: number;
  /** Players waiting in the pool, this one included. */
  waiting: number;
  /** Seconds before bots fill this ticket's table, as things stand. */
  fillSeconds: number;
}

/** The table quick play found: the seat token opens `/ws/rooms/{roomId}`. */
export interface QuickplayMatch {
  roomId: string;
  seat: number;
  token: string;
  /** The seat's name (a nameless guest's is the server's: "Guest 4821"). */
  name: string;
}

export declare class QuickplayFeed extends LiveSocket {
  constructor(client: UnoClient, ticket: string, options?: SocketOptions);
  readonly ticket: string;
  /** The table, once found. */
  match: QuickplayMatch | null;
  /** Resolves with the table; rejects if the ticket is dropped or the feed closed first. */
  matched: Promise<QuickplayMatch>;
  on(type: "queued", listener: Listener<[QuickplayWait]>): () => void;
  on(type: "matched", listener: Listener<[QuickplayMatch]>): () => void;
  on(type: "status", listener: Listener<[SocketStatus]>): () => void;
}

export declare class UnoClient {
  constructor(options?: UnoClientOptions);
  readonly baseUrl: string;
  socketUrl(path: string): string;
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<T>;
  protocol(): Promise<Record<string, unknown>>;
  listRooms(status?: "playing"): Promise<RoomSummary[]>;
  getRoom(roomId: string): Promise<RoomSummary>;
  createRoom(settings: CreateRoom): Promise<CreatedRoom>;
  joinRoom(roomId: string, body: JoinRoom, accountToken?: string | null): Promise<JoinedSeat>;
  joinByCode(body: JoinRoom & { code: string }, accountToken?: string | null): Promise<JoinedSeat>;
  startRoom(roomId: string, hostToken: string): Promise<{ seq: number }>;
  leaveRoom(roomId: string, token: string): Promise<null>;
  addBot(roomId: string, level: "easy" | "normal" | "hard", hostToken: string): Promise<{ seat: number }>;
  roomEvents(roomId: string, token?: string | null): Promise<{ seq: number; events: Event[] }>;
  roomByCode(code: string): Promise<RoomSummary>;
  changeSettings(roomId: string, changes: RoomSettings, hostToken: string): Promise<RoomSummary>;
  kick(roomId: string, seat: number, hostToken: string): Promise<null>;
  muteSeat(roomId: string, seat: number, muted: boolean, hostToken: string): Promise<null>;
  backToSeat(roomId: string, token: string): Promise<null>;
  claimWin(roomId: string, token: string): Promise<null>;
  rules(): Promise<RuleCatalogue>;
  cards(): Promise<CardTable>;
  drinks(): Promise<Drinks>;
  listTournaments(): Promise<Tournament[]>;
  createTournament(
    settings: CreateTournament,
    accountToken?: string | null,
  ): Promise<{ tournamentId: string; hostToken: string }>;
  joinTournament(
    tournamentId: string,
    body: { name: string; seed?: number },
    accountToken?: string | null,
  ): Promise<{ playerId: string; token: string }>;
  tournamentSeat(
    tournamentId: string,
    token: string,
  ): Promise<{ round: number; tableId: string; roomId: string; seat: number; token: string; startAt: number }>;
  getTournament(tournamentId: string): Promise<Tournament>;
  standings(tournamentId: string): Promise<{ tieBreaks: string[]; rows: StandingsRow[] }>;
  checkIn(tournamentId: string, token: string): Promise<Tournament>;
  withdraw(tournamentId: string, token: string): Promise<Tournament>;
  openCheckIn(tournamentId: string, hostToken: string): Promise<Tournament>;
  startTournament(tournamentId: string, hostToken: string): Promise<Tournament>;
  nextRound(tournamentId: string, round: number | null | undefined, hostToken: string): Promise<Tournament>;
  pauseTournament(tournamentId: string, hostToken: string): Promise<Tournament>;
  resumeTournament(tournamentId: string, hostToken: string): Promise<Tournament>;
  reseat(tournamentId: string, playerId: string, withPlayerId: string, hostToken: string): Promise<Tournament>;
  disqualify(tournamentId: string, playerId: string, reason: string, hostToken: string): Promise<Tournament>;
  reinstate(tournamentId: string, playerId: string, hostToken: string): Promise<Tournament>;
  correctResult(tournamentId: string, tableId: string, correction: Correction, hostToken: string): Promise<Tournament>;
  endTournament(tournamentId: string, hostToken: string): Promise<Tournament>;
  signUp(name: string, password: string): Promise<Account>;
  signIn(name: string, password: string): Promise<Account>;
  signOut(token: string): Promise<null>;
  me(token: string): Promise<Me>;
  player(name: string): Promise<PlayerProfile>;
  leaderboard(options?: { pool?: Pool; limit?: number }): Promise<Leaderboard>;
  matchRatings(matchId: string): Promise<MatchRatings>;
  frames(matchId: string, deal: number): Promise<DealFrames>;
  quickplay(options: { pool: Pool; name?: string; token?: string | null }): Promise<{ ticket: string }>;
  leaveQueue(ticket: string): Promise<null>;
  quickplayFeed(ticket: string, options?: SocketOptions): QuickplayFeed;
  connect(roomId: string, token: string, options?: SessionOptions): RoomSession;
  watch(roomId: string, options?: SessionOptions): RoomSession;
  lobby(options?: SocketOptions): LobbyFeed;
  tournament(tournamentId: string, options?: SocketOptions): TournamentFeed;
}

/** An entry of `view.legal` as an action, its `needs` chosen by `choose`. */
export declare function complete(entry: LegalEntry, choose?: (options: any[]) => any): Action;

/** The reconnect wait for attempt `attempt` (ms, with jitter). */
export declare function retryDelay(attempt: number, backoff?: number[]): number;

export declare class PatchError extends Error {
  operation?: unknown;
}
/** A JSON Patch applied to a copy of `doc` (`doc` is not changed). */
export declare function applyPatch<T>(doc: T, ops: readonly object[]): T;

/** Error codes of the REST routes (docs/protocol.md); the server may add more. */
export type RestErrorCode =
  | "invalid_request"
  | "room_not_found"
  | "bad_code"
  | "room_full"
  | "match_in_progress"
  | "not_enough_players"
  | "missing_token"
  | "bad_token"
  | "not_host"
  | "not_seated"
  | "seat_empty"
  | "seats_taken"
  | "bad_seats"
  | "age_confirmation_required"
  | "banned"
  | "not_banned"
  | "seat_left"
  | "not_away"
  | "cannot_claim"
  | "not_playing"
  | "paused"
  | "timeout"
  | "shutting_down"
  | "unavailable"
  | "rate_limited"
  | "network"
  | `rules/${string}`
  | `tournament/${string}`
  | `account/${string}`
  | `quickplay/${string}`
  | (string & {});

export declare class ApiError extends Error {
  /** The HTTP status (0: no answer). */
  status: number;
  code: RestErrorCode;
  /** The whole error body (what a refusal adds beside its code). */
  body: Record<string, unknown> | null;
  /** `match_in_progress`: the room to watch instead. */
  roomId?: string;
}
export declare class NetworkError extends ApiError {}
export declare class InvalidRequestError extends ApiError {
  readonly errors: { loc: unknown[]; msg: string }[];
}
export declare class UnauthorizedError extends ApiError {}
export declare class ForbiddenError extends ApiError {}
export declare class NotFoundError extends ApiError {}
export declare class ConflictError extends ApiError {}
export declare class RateLimitedError extends ApiError {
  /** Seconds to wait (the `Retry-After` header). */
  retryAfter: number | null;
}
export declare class UnavailableError extends ApiError {}

export declare class SocketError extends Error {
  code: string;
  ref: string | null;
  /** A lost race (`too_late`): the change that won. */
  won?: ErrorMessage["won"];
  race?: ErrorMessage["race"];
  /** A session that stopped for good: the close code. */
  closeCode?: number;
}
