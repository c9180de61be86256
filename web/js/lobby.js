// The lobby: your name, the open public rooms, joining by code, creating a room.

import { api, ApiError, roomsOf } from "./api.js";
import { client } from "./client.js";
import { h, mount } from "./dom.js";
import { errorText, presetLabel, t } from "./i18n.js";
import { confirmAdult } from "./pickers.js";
import { loadCatalogue, rulesEditor } from "./rules.js";
import { forget, signedIn } from "./accounts/client.js";
import { playNowSection } from "./accounts/play-now.js";
import { storage } from "./storage.js";
import { toast } from "./toast.js";

const REFRESH_MS = 5000;
// A player's name at most (the input stops there; the hint says so).
export const NAME_MAX = 24;

function roomIdOf(room) {
  return room.roomId ?? room.id;
}

/** The user declined a confirmation: stop quietly. */
class Cancelled extends Error {}

/**
 * Send a join request; a room with the drinking tally refuses it until the player
 * confirms their age, so ask and send it again.
 */
async function withAgeCheck(request, ageConfirmed = false) {
  try {
    return await request(ageConfirmed);
  } catch (err) {
    if (!(err instanceof ApiError) || err.code !== "age_confirmation_required" || ageConfirmed) throw err;
    if (!(await confirmAdult())) throw new Cancelled();
    return request(true);
  }
}

/**
 * Send a join as the signed-in account (its token as bearer: the seat is the account's,
 * with its name and rating), or as a guest called `guestName`. An account token that no
 * longer works (signed out elsewhere) is forgotten and the join goes as a guest.
 * Resolves with `{answer, name}`: the server's answer and the seat's name.
 */
export async function asAccountOrGuest(send, guestName) {
  const account = signedIn();
  if (account) {
    try {
      return { answer: await send(account.token), name: account.name };
    } catch (err) {
      if (!(err instanceof ApiError) || err.code !== "account/bad_token") throw err;
      forget();
    }
  }
  return { answer: await send(null), name: guestName };
}

/** The name a seat taken now gets: the signed-in account's, else null (a guest's own). */
export function accountName() {
  return signedIn()?.name ?? null;
}

/** Take a seat in `roomId` and remember its token; returns the join answer. */
export async function joinRoom(roomId, name, code, { ageConfirmed = false } = {}) {
  const joined = await asAccountOrGuest(
    (token) =>
      withAgeCheck((age) => {
        const body = { name };
        if (code) body.code = code;
        if (age) body.ageConfirmed = true;
        return api.joinRoom(roomId, body, token);
      }, ageConfirmed),
    name,
  );
  const answer = joined.answer;
  storage.setSeat(roomId, { seat: answer.seat, token: answer.token, name: joined.name, code: answer.code || code || null });
  return answer;
}

export function showError(err) {
  if (err instanceof Cancelled) return;
  const code = err instanceof ApiError ? err.code : "network";
  toast(errorText(code, err.message), { kind: "error", code });
}

// A code box may hold a bare code, a room id, or a pasted room link.
function parseCodeInput(text) {
  const value = text.trim();
  const link = /#\/room\/([^?/\s]+)(?:\?code=([^&\s]+))?/.exec(value);
  if (link) return { roomId: decodeURIComponent(link[1]), code: link[2] ? decodeURIComponent(link[2]) : null };
  return { roomId: null, code: value };
}

export function showLobby(root, params = {}) {
  let rooms = [];
  let playing = [];
  let timer = null;
  let disposed = false;
  let editor = null;
  let catalogue = null;
  // Made once: a wait in the queue outlives the lobby's re-renders.
  const playNow = playNowSection(() => form.name.trim());
  const form = { name: storage.name(), roomName: "", seats: 4, private: false, rated: false, code: params.code || "" };

  function requireName() {
    // Signed in, a seat is the account's and has its name.
    const signed = accountName();
    if (signed) return signed;
    // An emptied box falls back to the remembered (or a made-up) name rather than
    // blocking: the name is only a label at the table.
    const name = form.name.trim() || storage.name();
    if (!name) {
      toast(t("lobby.needName"), { kind: "error", code: "need_name" });
      root.querySelector("#player-name")?.focus();
      return null;
    }
    storage.setName(name);
    return name;
  }

  // The lists follow the lobby socket; REST reads them while it is not there (and on
  // "Refresh").
  const feed = client.lobby();
  feed.on("lobby", (liveRooms, livePlaying) => {
    rooms = liveRooms;
    playing = livePlaying;
    if (!disposed) renderRooms();
  });

  async function refresh() {
    if (feed.live) return; // the socket keeps the lists current
    let lists;
    try {
      lists = (await Promise.all([api.listRooms(), api.listRooms("playing")])).map(roomsOf);
    } catch {
      lists = [[], []];
    }
    // The socket's snapshot may have come while REST answered: its lists are newer.
    if (disposed || feed.live) return;
    [rooms, playing] = lists;
    renderRooms();
  }

  // A running game is watched, not joined: asked first, so that the expected way into a
  // started room is no refused request.
  async function running(roomId) {
    if (playing.some((r) => roomIdOf(r) === roomId)) return true;
    try {
      return (await api.getRoom(roomId)).status === "playing";
    } catch {
      return false; // the join says what is wrong
    }
  }

  function watchStarted(roomId, code) {
    toast(t("lobby.watchingStarted"), { code: "watching" });
    location.hash = `#/room/${encodeURIComponent(roomId)}${code ? `?code=${encodeURIComponent(code)}` : ""}`;
  }

  async function join(roomId, code) {
    const name = requireName();
    if (!name) return;
    if (await running(roomId)) {
      watchStarted(roomId, code);
      return;
    }
    try {
      await joinRoom(roomId, name, code);
      location.hash = `#/room/${encodeURIComponent(roomId)}`;
    } catch (err) {
      if (err instanceof ApiError && err.code === "match_in_progress") {
        watchStarted(roomId, code); // it started meanwhile
        return;
      }
      showError(err);
    }
  }

  async function joinByCode(event) {
    event.preventDefault();
    const { roomId, code } = parseCodeInput(form.code);
    if (!roomId && !code) return;
    const name = requireName();
    if (!name) return;
    if (roomId) return join(roomId, code);
    try {
      // A code whose match has begun is for watching: asked first (no refused join).
      const room = await api.roomByCode(code.toUpperCase()).catch(() => null);
      if (room?.status === "playing") {
        watchStarted(room.roomId, code.toUpperCase());
        return;
      }
      const joined = await asAccountOrGuest(
        (token) =>
          withAgeCheck((age) =>
            api.joinByCode({ name, code: code.toUpperCase(), ...(age ? { ageConfirmed: true } : {}) }, token),
          ),
        name,
      );
      const answer = joined.answer;
      storage.setSeat(answer.roomId, {
        seat: answer.seat,
        token: answer.token,
        name: joined.name,
        code: answer.code || code.toUpperCase(),
      });
      location.hash = `#/room/${encodeURIComponent(answer.roomId)}`;
    } catch (err) {
      // The code is right but the match has begun: watch it instead.
      if (err instanceof ApiError && err.code === "match_in_progress" && err.roomId) {
        toast(t("lobby.watchingStarted"), { code: "watching" });
        location.hash = `#/room/${encodeURIComponent(err.roomId)}?code=${encodeURIComponent(code.toUpperCase())}`;
        return;
      }
      // A public room can also be named by its id: try that before giving up.
      if (err instanceof ApiError && err.code === "bad_code") {
        try {
          await api.getRoom(code);
          return join(code, null);
        } catch {
          // fall through to the original error
        }
      }
      showError(err);
    }
  }

  async function create(event) {
    event.preventDefault();
    const name = requireName();
    if (!name) return;
    if (editor && !editor.valid()) {
      root.querySelector(".rules-editor").open = true;
      root.querySelector(".rules-editor :invalid")?.focus();
      return;
    }
    // Before the option list has come, a room gets the classic rules.
    const rules = editor ? editor.value() : { preset: "classic" };
    const drinks = rules.drinks ?? catalogue?.presets[rules.preset]?.drinks;
    if (drinks && !(await confirmAdult())) return;
    const body = {
      name: form.roomName.trim() || t("lobby.roomNameDefault", { name }),
      rules,
      seats: Number(form.seats),
      private: form.private,
      // Ratings need accounts: a guest's form offers no switch.
      rated: Boolean(signedIn()) && form.rated,
      // A table where one player falls asleep still finishes (the host may turn it off).
      turnSeconds: 30,
    };
    try {
      const room = await api.createRoom(body);
      storage.setSeat(room.roomId, { hostToken: room.hostToken, code: room.code ?? null });
      // The host plays too: take the first seat straight away.
      await joinRoom(room.roomId, name, room.code ?? null, { ageConfirmed: Boolean(drinks) });
      location.hash = `#/room/${encodeURIComponent(room.roomId)}`;
    } catch (err) {
      showError(err);
    }
  }

  function roomItem(room) {
    const id = roomIdOf(room);
    const seats = room.seats ?? room.maxSeats ?? "?";
    const taken = room.taken ?? room.players?.length ?? room.seated ?? 0;
    const started = room.status ? room.status !== "lobby" : Boolean(room.started);
    const preset = room.rules?.preset ?? room.preset;
    return h("li", { class: "room-item", "data-room-id": id }, [
      h("div", { class: "room-item-text" }, [
        h("strong", {}, [room.name || id]),
        h("span", { class: "muted" }, [
          [
            t("lobby.seats", { taken, seats }),
            preset ? presetLabel(preset) : null,
            started ? t("lobby.started") : null,
          ]
            .filter(Boolean)
            .join(" · "),
        ]),
      ]),
      h("div", { class: "room-item-actions" }, [
        started || taken >= seats
          ? null
          : h(
              "button",
              {
                type: "button",
                class: "primary",
                "data-testid": "join-room",
                "data-room-id": id,
                onClick: () => join(id, null),
              },
              [t("lobby.join")],
            ),
        h("a", { class: "button", href: `#/room/${encodeURIComponent(id)}` }, [t("lobby.watch")]),
      ]),
    ]);
  }

  // A running game: who plays, and a link to watch it.
  function watchItem(room) {
    const id = roomIdOf(room);
    const names = (room.players || []).map((p) => p.name).join(", ");
    const preset = room.rules?.preset;
    return h("li", { class: "room-item", "data-testid": "watch-item", "data-room-id": id }, [
      h("div", { class: "room-item-text" }, [
        h("strong", {}, [room.name || id]),
        h("span", { class: "muted" }, [[names, preset ? presetLabel(preset) : null].filter(Boolean).join(" · ")]),
      ]),
      h("div", { class: "room-item-actions" }, [
        h("a", { class: "button", "data-testid": "watch-room", "data-room-id": id, href: `#/room/${encodeURIComponent(id)}` }, [
          t("lobby.watch"),
        ]),
      ]),
    ]);
  }

  function renderRooms() {
    const list = root.querySelector("#room-list");
    if (list) {
      mount(list, rooms.length ? rooms.map(roomItem) : [h("li", { class: "muted empty" }, [t("lobby.noRooms")])]);
    }
    const watch = root.querySelector("#watch-list");
    if (watch) {
      mount(watch, playing.length ? playing.map(watchItem) : [h("li", { class: "muted empty" }, [t("lobby.noGames")])]);
    }
  }

  function bind(input, key, cast = (v) => v) {
    input.addEventListener("input", () => {
      form[key] = input.type === "checkbox" ? input.checked : cast(input.value);
    });
    return input;
  }

  function nameSection() {
    // Signed in, the name is the account's: shown, not typed.
    const signed = accountName();
    return h("section", { class: "panel lobby-name", "aria-labelledby": "name-h" }, [
      h("h1", { id: "name-h", class: "visually-hidden" }, [t("app.title")]),
      h("label", { for: "player-name" }, [t("lobby.name")]),
      bind(
        h("input", {
          id: "player-name",
          "data-testid": "player-name",
          autocomplete: "nickname",
          maxlength: NAME_MAX,
          placeholder: t("lobby.namePlaceholder"),
          value: signed ?? form.name,
          readonly: Boolean(signed),
          "data-account": signed ? "true" : null,
          "aria-describedby": "player-name-help",
          onInput: (e) => {
            // The room name's suggestion is the player's table: it follows the name typed.
            const roomName = root.querySelector("#room-name");
            if (roomName) roomName.placeholder = t("lobby.roomNameDefault", { name: e.target.value.trim() || t("lobby.exampleName") });
          },
        }),
        "name",
      ),
      h("p", { class: "hint", id: "player-name-help" }, [
        signed ? t("lobby.accountName", { name: signed }) : t("lobby.nameHelp", { n: NAME_MAX }),
      ]),
    ]);
  }

  function roomsSection() {
    return h("section", { class: "panel", "aria-labelledby": "rooms-h" }, [
      h("div", { class: "panel-head" }, [
        h("h2", { id: "rooms-h" }, [t("lobby.openRooms")]),
        h("button", { type: "button", onClick: refresh }, [t("lobby.refresh")]),
      ]),
      h("ul", { id: "room-list", class: "room-list", "data-testid": "room-list" }),
    ]);
  }

  function watchSection() {
    return h("section", { class: "panel", "aria-labelledby": "watch-h" }, [
      h("h2", { id: "watch-h" }, [t("lobby.watchGames")]),
      h("ul", { id: "watch-list", class: "room-list", "data-testid": "watch-list" }),
    ]);
  }

  function codeSection() {
    return h("section", { class: "panel", "aria-labelledby": "code-h" }, [
      h("h2", { id: "code-h" }, [t("lobby.joinByCode")]),
      h("form", { class: "inline-form", onSubmit: joinByCode }, [
        h("label", { for: "join-code" }, [t("lobby.code")]),
        bind(
          h("input", {
            id: "join-code",
            "data-testid": "room-code",
            autocomplete: "off",
            autocapitalize: "characters",
            "aria-describedby": "join-code-help",
            value: form.code,
          }),
          "code",
        ),
        h("button", { type: "submit", class: "primary", "data-testid": "join" }, [t("lobby.join")]),
        h("p", { class: "hint", id: "join-code-help" }, [t("lobby.codeHelp")]),
      ]),
    ]);
  }

  // One click: a private room with three normal bots, started at once.
  async function playBots() {
    const name = requireName();
    if (!name) return;
    try {
      const room = await api.createRoom({
        name: t("lobby.roomNameDefault", { name }),
        rules: { preset: "classic" },
        seats: 4,
        private: true,
        turnSeconds: 30,
      });
      storage.setSeat(room.roomId, { hostToken: room.hostToken, code: room.code ?? null });
      await joinRoom(room.roomId, name, room.code ?? null);
      for (let i = 0; i < 3; i += 1) await api.addBot(room.roomId, "normal", room.hostToken);
      await api.startRoom(room.roomId, room.hostToken);
      location.hash = `#/room/${encodeURIComponent(room.roomId)}`;
    } catch (err) {
      showError(err);
    }
  }

  function createSection() {
    return h("section", { class: "panel", "aria-labelledby": "create-h" }, [
      h("h2", { id: "create-h" }, [t("lobby.create")]),
      h("button", { type: "button", class: "primary big", "data-testid": "play-bots", onClick: playBots }, [
        t("lobby.playBots"),
      ]),
      h("form", { class: "create-form", onSubmit: create }, [
        h("div", { class: "field" }, [
          h("label", { for: "room-name" }, [t("lobby.roomName")]),
          bind(
            h("input", {
              id: "room-name",
              "data-testid": "room-name",
              maxlength: 40,
              value: form.roomName,
              placeholder: t("lobby.roomNameDefault", { name: form.name.trim() || t("lobby.exampleName") }),
            }),
            "roomName",
          ),
        ]),
        h("div", { class: "field" }, [
          h("label", { for: "room-seats" }, [t("lobby.seatsLabel")]),
          bind(
            h("input", {
              id: "room-seats",
              "data-testid": "seats",
              type: "number",
              min: 2,
              max: 10,
              required: true,
              inputmode: "numeric",
              value: form.seats,
              "aria-describedby": "room-seats-help",
              onInput: (e) => editor?.setSeats(Number(e.target.value)),
            }),
            "seats",
            Number,
          ),
          h("p", { class: "hint", id: "room-seats-help" }, [t("lobby.seatsHelp")]),
        ]),
        h("div", { class: "field check" }, [
          bind(
            h("input", {
              id: "room-private",
              type: "checkbox",
              "data-testid": "private",
              checked: form.private,
            }),
            "private",
          ),
          h("label", { for: "room-private" }, [t("lobby.private")]),
        ]),
        ratedSwitch(),
        editor ? editor.element : h("p", { class: "muted" }, ["…"]),
        h("button", { type: "submit", class: "primary big", "data-testid": "create-room" }, [
          t("lobby.createButton"),
        ]),
      ]),
    ]);
  }

  // Rated play: a signed-in host's switch; a guest is told it needs an account.
  function ratedSwitch() {
    if (!signedIn()) {
      return h("p", { class: "hint", "data-testid": "rated-needs-account" }, [
        t("lobby.ratedNeedsAccount"),
        " ",
        h("a", { href: "account.html" }, [t("nav.account")]),
      ]);
    }
    return h("div", { class: "field check" }, [
      bind(
        h("input", {
          id: "room-rated",
          type: "checkbox",
          "data-testid": "rated",
          checked: form.rated,
          "aria-describedby": "room-rated-help",
        }),
        "rated",
      ),
      h("label", { for: "room-rated" }, [t("lobby.rated")]),
      h("p", { class: "hint", id: "room-rated-help" }, [t("lobby.ratedHelp")]),
    ]);
  }

  // The seat box follows the preset's player range (UNO Duo seats exactly two).
  function fitSeats(preset, [low, high]) {
    const input = root.querySelector("#room-seats");
    const seats = Math.min(high, Math.max(low, Number(form.seats) || low));
    form.seats = seats;
    if (input) {
      input.min = String(low);
      input.max = String(high);
      input.value = String(seats);
    }
    const help = root.querySelector("#room-seats-help");
    if (help) help.textContent = t("lobby.seatsHelpRange", { min: low, max: high });
    editor?.setSeats(seats);
  }

  function render() {
    const before = editor ? editor.value() : { preset: "classic" };
    const wasOpen = Boolean(root.querySelector(".rules-editor")?.open);
    editor = catalogue ? rulesEditor(catalogue, before, { onPreset: fitSeats }) : null;
    if (editor && wasOpen) editor.element.querySelector(".rules-editor").open = true;
    playNow.describe(); // signed in or not, as of now
    mount(root, [
      h("div", { class: "lobby" }, [
        h("div", { class: "lobby-side" }, [
          playNow.element,
          nameSection(),
          roomsSection(),
          watchSection(),
          codeSection(),
        ]),
        createSection(),
      ]),
    ]);
    renderRooms();
    if (editor) fitSeats(editor.presetSelect.value, editor.players());
  }

  render();
  refresh();
  fetchCatalogue();
  timer = setInterval(() => {
    if (!feed.live) refresh();
    fetchCatalogue();
  }, REFRESH_MS);
  // The rules editor needs the server's option list; until it comes (or after a failed
  // fetch, retried with each refresh of the room list) the form waits for it.
  function fetchCatalogue() {
    if (catalogue) return;
    loadCatalogue()
      .then((cat) => {
        catalogue = cat;
        if (!disposed) render();
      })
      .catch(() => {});
  }

  return {
    dispose() {
      disposed = true;
      clearInterval(timer);
      feed.close();
    },
    rerender: render,
  };
}
