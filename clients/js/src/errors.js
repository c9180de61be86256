// The errors the package throws and rejects with, each with the server's `code`.

/** A REST refusal (4xx/5xx) or a request that never got an answer (`status` 0). The
 * subclass says what kind; `code` is the server's (`room_full`, `rules/bad_value`). */
export class ApiError extends Error {
  constructor(status, code, message, body = null) {
    super(message || code);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    // The whole answer: what a refusal adds beside its code (`errors` of a 422, the
    // `roomId` of `match_in_progress`).
    this.body = body;
    if (body && typeof body.roomId === "string") this.roomId = body.roomId;
  }
}

/** No answer at all: the server could not be reached. `status` 0, `code` "network". */
export class NetworkError extends ApiError {
  name = "NetworkError";
}
/** 400 and 422: the request is malformed (`invalid_request`, with `errors`). */
export class InvalidRequestError extends ApiError {
  name = "InvalidRequestError";
  get errors() {
    return Array.isArray(this.body?.errors) ? this.body.errors : [];
  }
}
/** 401: a token is missing or wrong (`missing_token`, `bad_token`). */
export class UnauthorizedError extends ApiError {
  name = "UnauthorizedError";
}
/** 403: the token is not allowed this (`not_host`, `banned`). */
export class ForbiddenError extends ApiError {
  name = "ForbiddenError";
}
/** 404: no such room, seat, tournament (`room_not_found`, `tournament/not_found`). */
export class NotFoundError extends ApiError {
  name = "NotFoundError";
}
/** 409: the room's state forbids it now (`room_full`, `match_in_progress`). */
export class ConflictError extends ApiError {
  name = "ConflictError";
}
/** 429: too many writes from this address; `retryAfter` seconds (from `Retry-After`). */
export class RateLimitedError extends ApiError {
  name = "RateLimitedError";
  retryAfter = null;
}
/** 503 (and other 5xx): the server cannot serve it now (`unavailable`); retry later. */
export class UnavailableError extends ApiError {
  name = "UnavailableError";
}

const BY_STATUS = {
  400: InvalidRequestError,
  401: UnauthorizedError,
  403: ForbiddenError,
  404: NotFoundError,
  409: ConflictError,
  422: InvalidRequestError,
  429: RateLimitedError,
};

/** The error for a refused answer. */
export function apiError(status, code, message, body) {
  const Kind = BY_STATUS[status] || (status >= 500 ? UnavailableError : ApiError);
  return new Kind(status, code, message, body);
}

/** What a socket refused (`error {ref, code, message}`): an action (`ref` its id), a
 * message, or the connection itself. A lost race's `too_late` carries `won` (and `race`
 * under fair races). A session that stopped for good rejects with one too: `code` the
 * refusal's (`bad_token`, `room_not_found`) or `closed_<close code>`, and `closeCode`. */
export class SocketError extends Error {
  constructor(code, message, ref = null, extra = {}) {
    super(message || code);
    this.name = "SocketError";
    this.code = code;
    this.ref = ref;
    for (const key of ["won", "race", "closeCode"]) if (extra[key] !== undefined) this[key] = extra[key];
  }

  static of(msg) {
    return new SocketError(String(msg.code), msg.message || String(msg.code), msg.ref ?? null, msg);
  }
}
