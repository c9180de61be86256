// The colour picker (for wilds) and the seven-swap target picker.
//
// Both are modal <dialog>s: showModal() traps focus and closes on Escape, and focus goes
// back to the card that opened them, so keyboard and screen-reader users never get lost.

import { cardFace, cardName } from "./cards.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { colorButtons } from "./table.js";

function dialog(title, body) {
  const el = h("dialog", { class: "picker", "aria-labelledby": "picker-h", "data-testid": "picker" }, [
    h("h2", { id: "picker-h" }, [title]),
    body,
    h("button", { type: "button", class: "link", "data-testid": "picker-cancel", onClick: () => el.close() }, [
      t("table.cancel"),
    ]),
  ]);
  const opener = document.activeElement;
  el.addEventListener("close", () => {
    el.remove();
    if (opener && document.contains(opener)) opener.focus();
  });
  document.body.append(el);
  el.showModal();
  return el;
}

/** Ask which colour `code` (a wild) names, among `colors` (those `legal` lists; default:
 * the side's colours); `done(color)` unless cancelled. */
export function pickColor(code, done, colors = undefined) {
  let el = null;
  const body = h(
    "div",
    { class: "colors" },
    colorButtons((color) => {
      el.close();
      done(color);
    }, colors),
  );
  el = dialog(`${t("table.chooseColor")} – ${cardName(code)}`, body);
  return el;
}

/** Ask whom to swap hands with; `players` are view.players entries, `name(seat)` a label. */
export function pickTarget(players, name, done) {
  let el = null;
  const body = h(
    "div",
    { class: "targets" },
    players.map((p) =>
      h(
        "button",
        {
          type: "button",
          "data-testid": `target-${p.seat}`,
          onClick: () => {
            el.close();
            done(p.seat);
          },
        },
        [`${name(p.seat)} (${t(p.cards === 1 ? "table.card1" : "table.cards", { n: p.cards })})`],
      ),
    ),
  );
  el = dialog(t("table.chooseTarget"), body);
  return el;
}

/**
 * Under multiPlay: which other cards go with `code` in the same play (in the order
 * ticked), and whether to call UNO with it; `done(list, uno)` with the extra cards,
 * possibly none.
 */
export function pickCompanions(code, companions, done) {
  let el = null;
  const chosen = [];
  const uno = h("input", { type: "checkbox", id: "uno-with-play", "data-testid": "uno-with-play" });
  const boxes = companions.map((c, i) => {
    const id = `companion-${i}`;
    const box = h("input", { type: "checkbox", id, "data-testid": "companion", "data-card": c });
    box.addEventListener("change", () => {
      if (box.checked) chosen.push(i);
      else chosen.splice(chosen.indexOf(i), 1);
    });
    return h("div", { class: "companion" }, [
      box,
      h("label", { for: id }, [cardFace(c, { size: "small" }), " ", cardName(c)]),
    ]);
  });
  const play = h(
    "button",
    {
      type: "button",
      class: "primary",
      "data-testid": "play-selected",
      onClick: () => {
        el.close();
        done(
          chosen.map((i) => companions[i]),
          uno.checked,
        );
      },
    },
    [t("table.playSelected")],
  );
  const unoRow = h("div", { class: "companion" }, [uno, h("label", { for: "uno-with-play" }, [t("table.unoWithPlay")])]);
  el = dialog(t("table.addCards", { card: cardName(code) }), h("div", { class: "companions" }, [...boxes, unoRow, play]));
  return el;
}

/** Ask whether the player is of legal drinking age; resolves true or false. */
export function confirmAdult() {
  return new Promise((resolve) => {
    let answer = false;
    const el = dialog(
      t("drinks.title"),
      h("div", { class: "adult" }, [
        h("p", {}, [t("drinks.question")]),
        h("div", { class: "row" }, [
          h(
            "button",
            {
              type: "button",
              class: "primary",
              "data-testid": "adult-yes",
              onClick: () => {
                answer = true;
                el.close();
              },
            },
            [t("drinks.yes")],
          ),
          h("button", { type: "button", "data-testid": "adult-no", onClick: () => el.close() }, [t("drinks.no")]),
        ]),
      ]),
    );
    el.addEventListener("close", () => resolve(answer));
  });
}

/** Ask before leaving a match (a bot plays the seat on); resolves true to leave. */
export function confirmLeave() {
  return new Promise((resolve) => {
    let answer = false;
    const el = dialog(
      t("table.leaveConfirmTitle"),
      h("div", { class: "leave-confirm", "data-testid": "leave-confirm" }, [
        h("p", {}, [t("table.leaveConfirm")]),
        h("div", { class: "row" }, [
          h(
            "button",
            {
              type: "button",
              class: "danger",
              "data-testid": "leave-yes",
              onClick: () => {
                answer = true;
                el.close();
              },
            },
            [t("table.leaveYes")],
          ),
          h("button", { type: "button", class: "primary", "data-testid": "leave-no", onClick: () => el.close() }, [
            t("table.leaveNo"),
          ]),
        ]),
      ]),
    );
    el.addEventListener("close", () => resolve(answer));
  });
}

/** Close any open picker (leaving the room). */
export function closePickers() {
  document.querySelectorAll("dialog.picker").forEach((d) => d.close());
}
