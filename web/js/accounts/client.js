// Accounts in the browser: where the signed-in account is kept, and its calls through
// the page's uno-client. The account token lives in localStorage only and goes out only
// in the Authorization header: never in a URL (docs/ratings.md).

import { client } from "../client.js";
import { errorText, t } from "../i18n.js";
import { loadCatalogue } from "../rules.js";

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

export async function signUp(name, password) {
  const account = await client.signUp(name, password);
  remember(account);
  return account;
}

export async function signIn(name, password) {
  const account = await client.signIn(name, password);
  remember(account);
  return account;
}

export async function signOut() {
  const account = signedIn();
  forget();
  if (account) {
    try {
      await client.signOut(account.token);
    } catch {
      // Already ended elsewhere: signed out either way.
    }
  }
}

export function me() {
  const account = signedIn();
  return account ? client.me(account.token) : Promise.resolve(null);
}

export function profile(name) {
  return client.player(name);
}

export function leaderboard(pool, limit = 50) {
  return client.leaderboard({ pool, limit });
}

// A rating as players read it: "1532", or "1532?" while provisional.
export function ratingText(rating) {
  if (!rating) return "";
  return `${rating.value}${rating.provisional ? "?" : ""}`;
}

/**
 * The rating pools as the server lists them (GET /api/rules `ratingPools`), as the options
 * of `select`; `chosen` (else the current choice) stays chosen.
 */
export function fillPools(select, chosen = select.value) {
  loadCatalogue()
    .then((cat) => {
      select.replaceChildren(
        ...Object.keys(cat.pools).map((name) => {
          const option = document.createElement("option");
          option.value = name;
          option.textContent = t(`pool.${name}`);
          return option;
        }),
      );
      if (chosen) select.value = chosen;
    })
    .catch(() => {});
}

/** A refusal in words, from the one catalogue (js/i18n.js). */
export function say(err) {
  return errorText(err.code, err.message);
}
