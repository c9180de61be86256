// uno-client: the JavaScript client of the UNO server's protocol uno.v1 (README.md).
export { UnoClient } from "./client.js";
export { RoomSession } from "./session.js";
export { LobbyFeed, QuickplayFeed, TournamentFeed } from "./feeds.js";
export { LiveSocket, PROTOCOL, retryDelay } from "./live.js";
export { applyPatch, PatchError } from "./patch.js";
export { complete } from "./legal.js";
export {
  ApiError,
  ConflictError,
  ForbiddenError,
  InvalidRequestError,
  NetworkError,
  NotFoundError,
  RateLimitedError,
  SocketError,
  UnauthorizedError,
  UnavailableError,
} from "./errors.js";
