// account.html: sign up, sign in, sign out.
import { me, say, signIn, signOut, signUp } from "./client.js";
import { pageInLanguage } from "./page.js";

const $ = (id) => document.getElementById(id);
let lastError = null; // shown again in the new language on a switch

function showError(err) {
  lastError = err;
  $("account-error").textContent = err ? say(err) : "";
}

async function show() {
  let account = null;
  try {
    account = await me();
  } catch {
    await signOut(); // the token ended (signed out elsewhere): forget it
  }
  $("signed-in").hidden = !account;
  $("signed-out").hidden = Boolean(account);
  $("me-name").textContent = account ? account.name : "";
  $("me-profile").href = account ? `player.html?name=${encodeURIComponent(account.name)}` : "#";
}

async function submit(action) {
  showError(null);
  try {
    await action($("account-name").value.trim(), $("account-password").value);
    $("account-password").value = "";
    await show();
  } catch (err) {
    showError(err);
  }
}

$("account-form").addEventListener("submit", (event) => {
  event.preventDefault();
  submit(signIn);
});
$("sign-up").addEventListener("click", () => submit(signUp));
$("sign-out").addEventListener("click", async () => {
  await signOut();
  await show();
});
pageInLanguage(() => showError(lastError));
show();
