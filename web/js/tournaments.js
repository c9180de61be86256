// The tournament lobby (#/tournaments): the tournaments on this server, registering for
// one by name, and creating one (its host token is kept in storage, as a room's is; a
// signed-in host also hosts it as the account, and may make it rated).

import { api } from "./api.js";
import { h, mount, preservingFocus } from "./dom.js";
import { presetLabel, t } from "./i18n.js";
import { accountName, asAccountOrGuest, NAME_MAX, showError } from "./lobby.js";
import { storage } from "./storage.js";
import { toast } from "./toast.js";

const REFRESH_MS = 5000;
// Presets a tournament table plays well (no two-player or drinking variants).
export const TOURNAMENT_PRESETS = ["classic", "house", "party", "crazy"];

/** "registration" | "running" | "over" in words, with the round when running. */
export function statusText(tournament) {
  if (tournament.status === "running") {
    const round = t("tour.roundOf", { n: tournament.round, of: tournament.rounds });
    return tournament.paused ? `${round} · ${t("tour.paused")}` : round;
  }
  if (tournament.status === "over") return tournament.endedEarly ? t("tour.overEarly") : t("tour.over");
  return tournament.checkIn ? t("tour.checkInOpen") : t("tour.registration");
}

/** Register in the tournament (as the signed-in account, else as `name`) and keep the
 * player's token; returns the answer. */
export async function registerFor(tournamentId, name) {
  const joined = await asAccountOrGuest((token) => api.registerTournament(tournamentId, name, token), name);
  const answer = joined.answer;
  storage.setTournament(tournamentId, { playerId: answer.playerId, token: answer.token, name: joined.name });
  if (joined.name === name) storage.setName(name);
  return answer;
}

export function showTournaments(root) {
  let tournaments = [];
  let disposed = false;
  const form = {
    name: storage.name(),
    tName: "",
    rounds: 3,
    tableSize: 4,
    dealsPerRound: 1,
    turnSeconds: 30,
    tableStartSeconds: 60,
    preset: "classic",
    rated: false,
  };

  async function refresh() {
    try {
      const found = await api.listTournaments();
      tournaments = Array.isArray(found) ? found : [];
    } catch {
      tournaments = [];
    }
    if (!disposed) renderList();
  }

  function playerName() {
    const name = form.name.trim() || storage.name();
    storage.setName(name);
    return name;
  }

  async function register(tournamentId) {
    try {
      await registerFor(tournamentId, playerName());
      toast(t("tour.registered"), { code: "registered" });
      location.hash = `#/tournament/${encodeURIComponent(tournamentId)}`;
    } catch (err) {
      showError(err);
    }
  }

  async function create(event) {
    event.preventDefault();
    const body = {
      name: form.tName.trim() || t("tour.nameDefault", { name: playerName() }),
      rounds: Number(form.rounds),
      tableSize: Number(form.tableSize),
      dealsPerRound: Number(form.dealsPerRound),
      turnSeconds: Number(form.turnSeconds),
      tableStartSeconds: Number(form.tableStartSeconds),
      rules: { preset: form.preset },
    };
    // Rated needs accounts (docs/ratings.md): the switch is there only signed in.
    if (accountName() && form.rated) body.rated = true;
    try {
      // Signed in, the account hosts it too: its console opens on any device it signs in on.
      const made = (await asAccountOrGuest((token) => api.createTournament(body, token), null)).answer;
      storage.setTournament(made.tournamentId, { hostToken: made.hostToken });
      location.hash = `#/tournament/${encodeURIComponent(made.tournamentId)}/host`;
    } catch (err) {
      showError(err);
    }
  }

  function item(tournament) {
    const id = tournament.tournamentId;
    const mine = storage.tournament(id);
    const players = tournament.players?.length ?? 0;
    return h("li", { class: "room-item", "data-testid": "tournament-item", "data-tournament-id": id }, [
      h("div", { class: "room-item-text" }, [
        h("strong", {}, [tournament.name]),
        h("span", { class: "muted" }, [
          [t("tour.players", { n: players }), statusText(tournament), mine?.token ? t("tour.youAreIn") : null]
            .filter(Boolean)
            .join(" · "),
        ]),
      ]),
      h("div", { class: "room-item-actions" }, [
        tournament.registrationOpen && !mine?.token
          ? h(
              "button",
              {
                type: "button",
                class: "primary",
                "data-testid": "register-tournament",
                "data-tournament-id": id,
                onClick: () => register(id),
              },
              [t("tour.register")],
            )
          : null,
        h(
          "a",
          { class: "button", href: `#/tournament/${encodeURIComponent(id)}`, "data-testid": "open-tournament" },
          [t("tour.open")],
        ),
      ]),
    ]);
  }

  function renderList() {
    const list = root.querySelector("#tournament-list");
    if (!list) return;
    mount(list, tournaments.length ? tournaments.map(item) : [h("li", { class: "muted empty" }, [t("tour.none")])]);
  }

  function bind(input, key) {
    input.addEventListener("input", () => {
      form[key] = input.value;
    });
    return input;
  }

  function ratedField() {
    if (!accountName()) return h("p", { class: "hint", "data-testid": "rated-needs-account" }, [t("tour.ratedGuest")]);
    const box = h("input", { id: "t-rated", type: "checkbox", "data-testid": "rated", checked: form.rated });
    box.addEventListener("change", () => {
      form.rated = box.checked;
    });
    return h("div", { class: "field check" }, [box, h("label", { for: "t-rated" }, [t("tour.ratedLabel")])]);
  }

  function numberField(key, id, label, min, max, help) {
    return h("div", { class: "field" }, [
      h("label", { for: id }, [label]),
      bind(
        h("input", {
          id,
          "data-testid": id,
          type: "number",
          inputmode: "numeric",
          min,
          max,
          required: true,
          value: form[key],
          "aria-describedby": help ? `${id}-help` : null,
        }),
        key,
      ),
      help ? h("p", { class: "hint", id: `${id}-help` }, [help]) : null,
    ]);
  }

  function render() {
    preservingFocus(root, () =>
      mount(root, [
        h("div", { class: "lobby" }, [
          h("div", { class: "lobby-side" }, [
            h("section", { class: "panel lobby-name", "aria-labelledby": "tour-h" }, [
              h("h1", { id: "tour-h", class: "page-title" }, [t("tour.title")]),
              h("label", { for: "tour-player-name" }, [t("lobby.name")]),
              bind(
                h("input", {
                  id: "tour-player-name",
                  "data-testid": "player-name",
                  "data-focus-key": "player-name",
                  autocomplete: "nickname",
                  maxlength: NAME_MAX,
                  value: accountName() ?? form.name,
                  readonly: Boolean(accountName()),
                  "data-account": accountName() ? "true" : null,
                }),
                "name",
              ),
              h("p", { class: "hint" }, [
                accountName() ? t("tour.accountName", { name: accountName() }) : t("tour.nameHelp"),
              ]),
            ]),
            h("section", { class: "panel", "aria-labelledby": "tour-list-h" }, [
              h("div", { class: "panel-head" }, [
                h("h2", { id: "tour-list-h" }, [t("tour.list")]),
                h("button", { type: "button", onClick: refresh }, [t("lobby.refresh")]),
              ]),
              h("ul", { id: "tournament-list", class: "room-list", "data-testid": "tournament-list" }),
            ]),
          ]),
          h("section", { class: "panel", "aria-labelledby": "tour-create-h" }, [
            h("h2", { id: "tour-create-h" }, [t("tour.create")]),
            h("form", { class: "create-form", onSubmit: create }, [
              h("div", { class: "field" }, [
                h("label", { for: "t-name" }, [t("tour.name")]),
                bind(
                  h("input", {
                    id: "t-name",
                    "data-testid": "t-name",
                    maxlength: 40,
                    value: form.tName,
                    placeholder: t("tour.nameDefault", { name: form.name.trim() || t("lobby.exampleName") }),
                  }),
                  "tName",
                ),
              ]),
              h("div", { class: "field" }, [
                h("label", { for: "t-preset" }, [t("rules.preset")]),
                bind(
                  h(
                    "select",
                    { id: "t-preset", "data-testid": "t-preset" },
                    TOURNAMENT_PRESETS.map((p) =>
                      h("option", { value: p, selected: p === form.preset }, [presetLabel(p)]),
                    ),
                  ),
                  "preset",
                ),
              ]),
              h("div", { class: "field-row" }, [
                numberField("rounds", "t-rounds", t("tour.rounds"), 1, 20),
                numberField("tableSize", "t-table-size", t("tour.tableSize"), 3, 6),
                numberField("dealsPerRound", "t-deals", t("tour.dealsPerRound"), 1, 10),
              ]),
              numberField("turnSeconds", "t-turn-seconds", t("tour.turnSeconds"), 5, 300, t("tour.turnSecondsHelp")),
              numberField(
                "tableStartSeconds",
                "t-table-start",
                t("tour.tableStart"),
                0,
                3600,
                t("tour.tableStartHelp"),
              ),
              ratedField(),
              h("button", { type: "submit", class: "primary big", "data-testid": "create-tournament" }, [
                t("tour.createButton"),
              ]),
            ]),
          ]),
        ]),
      ]),
    );
    renderList();
  }

  render();
  refresh();
  const timer = setInterval(refresh, REFRESH_MS);
  return {
    dispose() {
      disposed = true;
      clearInterval(timer);
    },
    rerender: render,
  };
}
