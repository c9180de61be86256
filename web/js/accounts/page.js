// The account, profile and leaderboard pages: their words come from the one catalogue
// (js/i18n.js, marked with data-i18n in the HTML), with the language switch in the top bar
// as on the game's page.
import { LANGUAGES, language, onLanguageChange, setLanguage, t, translatePage } from "../i18n.js";

/** Translate the page now and on every switch; `redraw()` renders its own content again. */
export function pageInLanguage(redraw = () => {}) {
  const label = document.createElement("label");
  label.className = "lang";
  const name = document.createElement("span");
  name.className = "visually-hidden";
  name.id = "lang-label";
  name.dataset.i18n = "lang.label";
  const select = document.createElement("select");
  select.dataset.testid = "language";
  select.setAttribute("data-testid", "language");
  select.setAttribute("aria-labelledby", "lang-label");
  for (const lang of LANGUAGES) {
    const option = document.createElement("option");
    option.value = lang;
    option.textContent = t(`lang.${lang}`);
    select.append(option);
  }
  select.addEventListener("change", () => setLanguage(select.value));
  label.append(name, select);
  document.querySelector(".topbar-tools").append(label);
  const show = () => {
    translatePage();
    select.value = language();
    redraw();
  };
  onLanguageChange(show);
  show();
}
