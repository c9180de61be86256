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
      return { options: data.options, presets: data.presets };
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
export function rulesEditor(cat, initial = { preset: "classic" }) {
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

  function applyPreset(name) {
    preset = name;
    presetHelp.textContent = has(`presetHelp.${name}`) ? t(`presetHelp.${name}`) : "";
    const values = presetValues(cat, name);
    for (const option of cat.options) write(option, values[option.name]);
    markChanges();
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
