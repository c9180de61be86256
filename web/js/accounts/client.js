// Accounts in the browser: the REST calls and where the signed-in account is kept.
// The account token lives in localStorage only and goes out only in the Authorization
// header: never in a URL (docs/ratings.md).

const KEY = "uno.account";

export function signedIn() {
  try {
    const found = JSON.parse(localStorage.getItem(KEY) || "null");
    return found && typeof found.token === "string" ? found : null;
  } catch {
    return null;
  }
}

function remember(account) {
  localStorage.setItem(KEY, JSON.stringify(account));
}

export function forget() {
  localStorage.removeItem(KEY);
}

export class AccountError extends Error {
  constructor(status, code, message) {
    super(message || code);
    this.status = status;
    this.code = code;
  }
}

async function call(method, path, { body, token } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const data = text ? JSON.parse(text) : null;
  if (!response.ok) {
    throw new AccountError(response.status, data && data.code, data && data.message);
  }
  return data;
}

export async function signUp(name, password) {
  const account = await call("POST", "/api/accounts", { body: { name, password } });
  remember(account);
  return account;
}

export async function signIn(name, password) {
  const account = await call("POST", "/api/sessions", { body: { name, password } });
  remember(account);
  return account;
}

export async function signOut() {
  const account = signedIn();
  forget();
  if (account) {
    try {
      await call("DELETE", "/api/sessions", { token: account.token });
    } catch {
      // Already ended elsewhere: signed out either way.
    }
  }
}

export function me() {
  const account = signedIn();
  return account ? call("GET", "/api/me", { token: account.token }) : Promise.resolve(null);
}

export function profile(name) {
  return call("GET", `/api/players/${encodeURIComponent(name)}`);
}

export function leaderboard(pool, limit = 50) {
  return call("GET", `/api/leaderboard?pool=${encodeURIComponent(pool)}&limit=${limit}`);
}

// A rating as players read it: "1532", or "1532?" while provisional.
export function ratingText(rating) {
  if (!rating) return "";
  return `${rating.value}${rating.provisional ? "?" : ""}`;
}

export const POOLS = ["classic", "duo", "flip", "party"];

// Words for the refusal codes of these routes.
export const MESSAGES = {
  "account/name_taken": "That name is taken.",
  "account/bad_name": "A name is 3-20 letters, digits, _ or -.",
  "account/bad_password": "A password is 8-200 characters.",
  "account/bad_credentials": "Wrong name or password.",
  "account/too_many_failures": "Too many failed sign-ins: wait a minute and try again.",
  player_not_found: "No player has that name.",
};

export function say(err) {
  return MESSAGES[err.code] || err.message || "Something went wrong.";
}
