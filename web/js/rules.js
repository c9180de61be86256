// The rules editor: every rule option, grouped, with its range, default and a one-line
// explanation, starting from a preset.
//
// The options and presets come from the server (GET /api/rules, the engine's own
// describe_options() and PRESETS), so a new engine option shows up here by itself.

import { api } from "./api.js";
import { h } from "./dom.js";
import { choiceLabel, optionHelp, optionLabel, presetLabel, t, has } from "./i18n.js";

const GROUP_ORDER = ["play", "deck", "scoring"];
let loading = null;

/**
 * {options, presets} from the server, fetched once per page; a failed fetch is forgotten
 * so that the next call tries again.
 */
export function loadCatalogue() {
  if (!loading) {
    loading = api.ruleOptions().then((data) => {
      if (!Array.isArray(data?.options) || typeof data.presets !== "object") {
        throw new Error("unexpected /api/rules answer");
      }
      return { options: data.options, presets: data.presets, facts: data.presetFacts || {} };
    });
    loading.catch(() => {
      loading = null;
    });
  }
  return loading;
}

/** The value of every option under `preset` (its overrides on top of the defaults). */
export function presetValues(cat, preset) {
  const values = {};
  for (const o of cat.options) values[o.name] = o.default;
  Object.assign(values, cat.presets[preset] || {});
  return values;
}

function formatValue(option, value) {
  if (option.kind === "bool") return value ? t("rules.on") : t("rules.off");
  if (option.kind === "enum") return choiceLabel(value);
  return String(value);
}

/**
 * Build the editor, starting from `initial` (the wire form below). Returns
 * {element, value(), valid()}, where value() is the wire form:
 * `{preset, ...options that differ from the preset}`.
 */
/** [fewest, most] players `preset` seats (the server's presetFacts; else 2-10). */
export function presetPlayers(cat, preset) {
  const range = cat.facts?.[preset]?.players;
  return Array.isArray(range) && range.length === 2 ? range : [2, 10];
}

/** Whether `option` means anything under `preset` (a game of its own reads only some). */
export function optionApplies(cat, preset, option) {
  const only = cat.facts?.[preset]?.options;
  return !Array.isArray(only) || only.includes(option);
}

// Two decks from this many players on (the decks option's own advice: two for 7-10).
const TWO_DECKS_FROM = 7;

export function rulesEditor(cat, initial = { preset: "classic" }, { onPreset = null } = {}) {
  const initialPreset = initial.preset || "classic";
  let preset = Object.hasOwn(cat.presets, initialPreset) ? initialPreset : "classic";
  const inputs = new Map(); // name -> input element
  const rows = new Map(); // name -> row element (for the "changed" mark)

  const presetHelp = h("p", { class: "hint", id: "preset-help" });
  const presetSelect = h(
    "select",
    { id: "rules-preset", name: "preset", "data-testid": "preset", "aria-describedby": "preset-help" },
    Object.keys(cat.presets).map((name) =>
      h("option", { value: name, selected: name === preset }, [presetLabel(name)]),
    ),
  );

  function read(option) {
    const input = inputs.get(option.name);
    if (option.kind === "bool") return input.checked;
    if (option.kind === "int") return Number(input.value);
    return input.value;
  }

  function write(option, value) {
    const input = inputs.get(option.name);
    if (option.kind === "bool") input.checked = Boolean(value);
    else input.value = String(value);
  }

  function markChanges() {
    const base = presetValues(cat, preset);
    for (const option of cat.options) {
      rows.get(option.name).classList.toggle("changed", read(option) !== base[option.name]);
    }
  }

  let seats = null; // the table's seat count, when the form around the editor says it

  // The deck count follows the table's size until the player sets it.
  function suggestDecks() {
    const option = cat.options.find((o) => o.name === "decks");
    if (!option || seats === null || !inputs.has("decks")) return;
    const base = presetValues(cat, preset).decks;
    const current = read(option);
    const suggested = seats >= TWO_DECKS_FROM ? Math.max(2, base) : base;
    const untouched = current === base || current === suggestedFor;
    if (untouched && suggested >= option.min && suggested <= option.max) write(option, suggested);
    suggestedFor = suggested;
    markChanges();
  }
  let suggestedFor = null;

  function showApplicable() {
    for (const option of cat.options) {
      rows.get(option.name).hidden = !optionApplies(cat, preset, option.name);
    }
    for (const fieldset of fieldsets) {
      fieldset.hidden = [...fieldset.querySelectorAll(".rule")].every((row) => row.hidden);
    }
  }

  function applyPreset(name) {
    preset = name;
    presetHelp.textContent = has(`presetHelp.${name}`) ? t(`presetHelp.${name}`) : "";
    const values = presetValues(cat, name);
    for (const option of cat.options) write(option, values[option.name]);
    suggestedFor = null;
    showApplicable();
    markChanges();
    suggestDecks();
    onPreset?.(name, presetPlayers(cat, name));
  }

  function control(option, id, describedBy) {
    const common = { id, name: option.name, "aria-describedby": describedBy };
    if (option.kind === "bool") return h("input", { ...common, type: "checkbox" });
    if (option.kind === "int") {
      return h("input", {
        ...common,
        type: "number",
        inputmode: "numeric",
        min: option.min,
        max: option.max,
        step: option.step || 1,
        required: true,
      });
    }
    return h(
      "select",
      common,
      (option.choices || []).map((c) => h("option", { value: c }, [choiceLabel(c)])),
    );
  }

  function optionRow(option) {
    const id = `rule-${option.name}`;
    const helpId = `${id}-help`;
    const input = control(option, id, helpId);
    input.addEventListener("change", markChanges);
    inputs.set(option.name, input);
    const facts = [t("rules.default", { value: formatValue(option, option.default) })];
    if (option.kind === "int") {
      facts.unshift(
        (option.step || 1) > 1
          ? t("rules.rangeStep", { min: option.min, max: option.max, step: option.step })
          : t("rules.range", { min: option.min, max: option.max }),
      );
    }
    const row = h("div", { class: `rule rule-${option.kind}`, "data-option": option.name }, [
      h("label", { for: id }, [optionLabel(option.name)]),
      input,
      h("p", { class: "hint", id: helpId }, [
        optionHelp(option.name, option.help),
        h("span", { class: "facts" }, [` (${facts.join("; ")})`]),
      ]),
    ]);
    rows.set(option.name, row);
    return row;
  }

  const groups = [...new Set([...GROUP_ORDER, ...cat.options.map((o) => o.group || "play")])];
  const fieldsets = groups
    .map((group) => {
      const options = cat.options.filter((o) => (o.group || "play") === group);
      if (!options.length) return null;
      const title = has(`rules.group.${group}`) ? t(`rules.group.${group}`) : group;
      return h("fieldset", { class: "rule-group" }, [
        h("legend", {}, [title]),
        ...options.map(optionRow),
      ]);
    })
    .filter(Boolean);

  presetSelect.addEventListener("change", () => applyPreset(presetSelect.value));
  const reset = h("button", { type: "button", class: "link", onClick: () => applyPreset(preset) }, [
    t("rules.reset"),
  ]);

  // The preset is always visible; the individual options fold away, since most tables
  // only pick a preset.
  const element = h("div", { class: "rules" }, [
    h("div", { class: "rule preset-row" }, [
      h("label", { for: "rules-preset" }, [t("rules.preset")]),
      presetSelect,
      presetHelp,
    ]),
    h("details", { class: "rules-editor", "data-testid": "rules-editor" }, [
      h("summary", {}, [t("rules.title")]),
      reset,
      ...fieldsets,
    ]),
  ]);
  applyPreset(preset);
  // Changes made before a redraw (a language switch) survive it.
  for (const option of cat.options) {
    if (Object.hasOwn(initial, option.name)) write(option, initial[option.name]);
  }
  markChanges();

  return {
    element,
    presetSelect,
    /** The players the chosen preset seats: [fewest, most]. */
    players: () => presetPlayers(cat, preset),
    /** The table's seat count changed: the deck count may follow it. */
    setSeats(n) {
      seats = Number.isFinite(n) ? n : null;
      suggestDecks();
    },
    setPreset(name) {
      presetSelect.value = name;
      applyPreset(name);
    },
    value() {
      const base = presetValues(cat, preset);
      const out = { preset };
      for (const option of cat.options) {
        const v = read(option);
        if (v !== base[option.name]) out[option.name] = v;
      }
      return out;
    },
    /** Browser-side range check, so the form says what is wrong before the server does. */
    valid() {
      return [...inputs.values()].every((input) => input.checkValidity());
    },
  };
}

/**
 * The rules in force, readable by every seat and spectator: the preset, then each option
 * that applies to its game with its value; the ones the host changed from the preset
 * come first, marked.
 */
export function rulesSummary(cat, rules, { open = false } = {}) {
  const preset = Object.hasOwn(cat.presets, rules?.preset) ? rules.preset : "classic";
  const base = presetValues(cat, preset);
  const items = cat.options
    .filter((o) => optionApplies(cat, preset, o.name) && rules && Object.hasOwn(rules, o.name))
    .map((o) => ({ option: o, value: rules[o.name], changed: rules[o.name] !== base[o.name] }))
    .sort((a, b) => Number(b.changed) - Number(a.changed));
  const changed = items.filter((i) => i.changed).length;
  return h("details", { class: "rules-summary", "data-testid": "rules-summary", open }, [
    h("summary", {}, [t("rules.inForce", { preset: presetLabel(preset), n: changed })]),
    has(`presetHelp.${preset}`) ? h("p", { class: "hint" }, [t(`presetHelp.${preset}`)]) : null,
    h(
      "dl",
      { class: "rules-list" },
      items.flatMap(({ option, value, changed: mark }) => [
        h("dt", { "data-option": option.name, class: mark ? "changed" : "" }, [
          optionLabel(option.name),
          mark ? h("span", { class: "badge" }, [t("rules.changed")]) : null,
        ]),
        h("dd", { "data-option": option.name }, [formatValue(option, value)]),
      ]),
    ),
  ]);
}
