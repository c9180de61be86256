// Chat and quick reactions (docs/protocol.md, "Chat and reactions"): sent on the room's
// socket, shown as text (never HTML), not part of the game (no seq). A seat's messages
// reach everyone; a spectator's only the other spectators.

import { h } from "./dom.js";
import { t } from "./i18n.js";

export const CHAT_MAX = 200;
export const EMOTES = {
  thumbsUp: "👍",
  laugh: "😂",
  wow: "😮",
  sad: "😢",
  angry: "😠",
  clap: "👏",
  gg: "🤝",
  uno: "🃏",
};
const KEPT = 50;

/** Keep `message` (a relayed `chat` or `reaction`) in `lines`, the latest 50. */
export function keepLine(lines, message) {
  lines.push(message);
  if (lines.length > KEPT) lines.splice(0, lines.length - KEPT);
}

function lineText(m, ctx) {
  const who = m.spectator ? t("chat.spectator") : m.name || ctx.name(m.seat);
  if (m.type === "reaction") {
    // The word beside the glyph: a device without an emoji font still reads it.
    return [
      h("strong", {}, [`${who} `]),
      h("span", { "aria-hidden": "true" }, [`${EMOTES[m.emote] || "?"} `]),
      h("span", { class: "reaction-word" }, [t(`chat.emote.${m.emote}`)]),
    ];
  }
  return [h("strong", {}, [`${who}: `]), m.text];
}

/**
 * The chat panel. `ctx`: {lines, name(seat), say(text), react(emote), draft, setDraft,
 * spectator, mutes: [{seat, name, muted}] for the host, mute(seat, muted)}.
 */
export function chatPanel(ctx) {
  const input = h("input", {
    id: "chat-text",
    "data-testid": "chat-text",
    "data-focus-key": "chat-text",
    maxlength: CHAT_MAX,
    autocomplete: "off",
    value: ctx.draft || "",
    "aria-label": t("chat.label"),
    onInput: (e) => ctx.setDraft(e.target.value),
  });
  const send = (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    ctx.say(text);
    ctx.setDraft("");
    input.value = "";
  };
  return h("section", { class: "panel chat", "aria-labelledby": "chat-h", "data-testid": "chat" }, [
    h("h2", { id: "chat-h" }, [ctx.spectator ? t("chat.titleSpectators") : t("chat.title")]),
    h(
      "ol",
      { class: "chat-lines", "data-testid": "chat-lines", "aria-live": "polite" },
      ctx.lines.map((m) =>
        h("li", { "data-type": m.type, "data-seat": m.seat ?? "", class: m.spectator ? "spectator" : "" }, lineText(m, ctx)),
      ),
    ),
    h(
      "div",
      { class: "reactions", role: "group", "aria-label": t("chat.reactions") },
      Object.entries(EMOTES).map(([name, glyph]) =>
        h(
          "button",
          {
            type: "button",
            class: "reaction",
            "data-testid": `react-${name}`,
            onClick: () => ctx.react(name),
          },
          [h("span", { class: "reaction-glyph", "aria-hidden": "true" }, [glyph]), h("span", { class: "reaction-label" }, [t(`chat.emote.${name}`)])],
        ),
      ),
    ),
    h("form", { class: "inline-form chat-form", onSubmit: send }, [
      input,
      h("button", { type: "submit", "data-testid": "chat-send" }, [t("chat.send")]),
    ]),
    ctx.mutes?.length
      ? h(
          "div",
          { class: "mutes" },
          ctx.mutes.map((m) =>
            h(
              "button",
              {
                type: "button",
                class: "link",
                "data-testid": `mute-${m.seat}`,
                "aria-pressed": String(m.muted),
                onClick: () => ctx.mute(m.seat, !m.muted),
              },
              [t(m.muted ? "chat.unmute" : "chat.mute", { name: m.name })],
            ),
          ),
        )
      : null,
  ]);
}
