// The rules editor: every rule option, grouped, with its range, default and a one-line
// explanation, starting from a preset.
//
// The options and presets come from the server (GET /api/rules, the engine's own
// describe_options() and PRESETS), so a new engine option shows up here by itself.

import { api } from "./api.js";
import { h } from "./dom.js";
import { choiceLabel, optionHelp, optionLabel, presetLabel, t, has } from "./i18n.js";

const GROUP_ORDER = ["play", "deck", "scoring"];
// The house rules tables change most, shown first in the editor; the rest fold away under
// "More rules".
export const COMMON_OPTIONS = ["stacking", "jumpIn", "sevenZero", "drawToMatch", "forcedPlay", "roundLimit", "targetScore"];
let loading = null;

/**
 * {options, presets, facts, pools, botLevels, matchEnd} from the server (the rating pools
 * with their presets, the bot levels a room seats, the options that end a match), fetched
 * once per page; a failed fetch is forgotten so that the next call tries again.
 */
export function loadCatalogue() {
  if (!loading) {
    loading = api.ruleOptions().then((data) => {
      const lists = [data?.options, data?.botLevels, data?.matchEndOptions];
      const maps = [data?.presets, data?.presetFacts, data?.ratingPools];
      if (!lists.every(Array.isArray) || !maps.every((m) => m && typeof m === "object")) {
        throw new Error("unexpected /api/rules answer");
      }
      return {
        options: data.options,
        presets: data.presets,
        facts: data.presetFacts,
        pools: data.ratingPools,
        botLevels: data.botLevels,
        matchEnd: data.matchEndOptions,
      };
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

function clockLength(seconds) {
  return seconds % 60 ? t("rules.end.seconds", { n: seconds }) : t("rules.end.minutes", { n: seconds / 60 });
}

/**
 * How the match ends under `values` (every option's value: the server's defaults under
 * the preset's, then the room's), read from the options that really end it: the match
 * mode, the target, the deal limit, the scoring's direction and the blitz clock. A
 * preset's description may not say it, since the host can change them.
 */
export function matchEnd(values) {
  const mode = values.matchMode;
  const target = values.targetScore;
  const limit = values.roundLimit;
  const winner = values.scoringMode === "ownHandCounts" ? t("rules.end.lowest") : t("rules.end.highest");
  let text;
  if (mode === "oneAndDone") text = t("rules.end.firstOut");
  else if (mode === "knockout") text = t("rules.end.knockout", { n: target });
  else if (limit === 1) text = t("rules.end.oneDeal", { winner });
  else if (limit > 1) text = t("rules.end.pointsOrDeals", { n: target, deals: limit, winner });
  else text = t("rules.end.points", { n: target, winner });
  if (values.blitzSeconds > 0) text += ` ${t("rules.end.blitz", { time: clockLength(values.blitzSeconds) })}`;
  return text;
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
/** [fewest, most] players `preset` seats (the server's presetFacts). */
export function presetPlayers(cat, preset) {
  return cat.facts[preset].players;
}

/** Whether `option` means anything under `preset` (a game of its own reads only some). */
export function optionApplies(cat, preset, option) {
  const only = cat.facts[preset].options;
  return !Array.isArray(only) || only.includes(option);
}

// Two decks from this many players on (the decks option's own advice: two for 7-10).
/**
 * One group of "More rules" ("Deck", "Scoring and the match"...): a button that folds
 * and unfolds its options, so the list opens as a short column of headings.
 */
function ruleSection(group, title, rows) {
  const id = `rules-section-${group}`;
  const count = h("span", { class: "muted" }, [` (${rows.length})`]);
  const fieldset = h("fieldset", { class: "rule-group", id, hidden: true }, [
    h("legend", { class: "visually-hidden" }, [title]),
    ...rows,
  ]);
  const toggle = h(
    "button",
    {
      type: "button",
      class: "rule-section-toggle",
      "aria-expanded": "false",
      "aria-controls": id,
      "data-testid": "rule-section",
      "data-group": group,
      onClick: () => section.setOpen(toggle.getAttribute("aria-expanded") !== "true"),
    },
    [title, count],
  );
  const section = {
    rows,
    fieldset,
    element: h("div", { class: "rule-section", "data-group": group }, [toggle, fieldset]),
    open: false,
    setOpen(open, { remember = true } = {}) {
      if (remember) section.open = open;
      toggle.setAttribute("aria-expanded", String(open));
      fieldset.dataset.folded = open ? "false" : "true";
      section.refresh();
    },
    /** Shown while the preset uses one of its options (see showApplicable), open or not. */
    refresh() {
      const applies = rows.some((row) => !row.hidden);
      const matching = rows.some((row) => !row.hidden && !row.classList.contains("filtered-out"));
      section.element.hidden = !applies || !matching;
      fieldset.hidden = fieldset.dataset.folded !== "false";
      count.textContent = ` (${rows.filter((row) => !row.hidden && !row.classList.contains("filtered-out")).length})`;
    },
  };
  fieldset.dataset.folded = "true";
  return section;
}

/** A search box over the sections: each option's name and help; matching sections open. */
function ruleFilter(sections) {
  const input = h("input", {
    id: "rules-filter",
    type: "search",
    "data-testid": "rules-filter",
    autocomplete: "off",
    placeholder: t("rules.filterPlaceholder"),
  });
  const none = h("p", { class: "hint", "data-testid": "rules-filter-none", hidden: true }, [t("rules.filterNone")]);
  function apply() {
    const query = input.value.trim().toLocaleLowerCase();
    for (const section of sections) {
      for (const row of section.rows) {
        row.classList.toggle("filtered-out", Boolean(query) && !row.textContent.toLocaleLowerCase().includes(query));
      }
      // While searching every section with a match is open; after, each as it was.
      section.setOpen(query ? true : section.open, { remember: false });
    }
    none.hidden = !query || sections.some((section) => !section.element.hidden);
  }
  input.addEventListener("input", apply);
  return {
    apply,
    element: h("div", { class: "field rules-filter" }, [
      h("label", { for: "rules-filter" }, [t("rules.filter")]),
      input,
      none,
    ]),
  };
}

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

  const endLine = h("p", { class: "match-end", "data-testid": "rules-match-end", "aria-live": "polite" });

  function markChanges() {
    const base = presetValues(cat, preset);
    const values = {};
    for (const option of cat.options) {
      values[option.name] = read(option);
      rows.get(option.name).classList.toggle("changed", values[option.name] !== base[option.name]);
    }
    endLine.textContent = matchEnd(values);
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
    commonFieldset.hidden = [...commonFieldset.querySelectorAll(".rule")].every((row) => row.hidden);
    filter?.apply();
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

  const common = COMMON_OPTIONS.map((name) => cat.options.find((o) => o.name === name)).filter(Boolean);
  const commonSet = new Set(common.map((o) => o.name));
  const commonFieldset = h("fieldset", { class: "rule-group common-rules", "data-testid": "common-rules" }, [
    h("legend", {}, [t("rules.common")]),
    ...common.map(optionRow),
    endLine,
  ]);
  const groups = [...new Set([...GROUP_ORDER, ...cat.options.map((o) => o.group || "play")])];
  const sections = groups
    .map((group) => {
      const options = cat.options.filter((o) => (o.group || "play") === group && !commonSet.has(o.name));
      if (!options.length) return null;
      const title = has(`rules.group.${group}`) ? t(`rules.group.${group}`) : group;
      return ruleSection(group, title, options.map(optionRow));
    })
    .filter(Boolean);
  const filter = ruleFilter(sections);

  presetSelect.addEventListener("change", () => applyPreset(presetSelect.value));
  const reset = h("button", { type: "button", class: "link", onClick: () => applyPreset(preset) }, [
    t("rules.reset"),
  ]);

  // The preset and the common house rules are always visible; the other options fold
  // away under "More rules", since most tables only change a few.
  const element = h("div", { class: "rules" }, [
    h("div", { class: "rule preset-row" }, [
      h("label", { for: "rules-preset" }, [t("rules.preset")]),
      presetSelect,
      presetHelp,
    ]),
    commonFieldset,
    h("details", { class: "rules-editor", "data-testid": "rules-editor" }, [
      h("summary", {}, [t("rules.more", { n: cat.options.length - common.length })]),
      reset,
      filter.element,
      ...sections.map((section) => section.element),
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
 * The rules in force, readable by every seat and spectator: the preset, how the match
 * ends, and what differs from the preset; the whole list of options that apply to its
 * game (the changed ones first, marked) unfolds under it.
 */
export function rulesSummary(cat, rules, { open = false } = {}) {
  const preset = Object.hasOwn(cat.presets, rules?.preset) ? rules.preset : "classic";
  const base = presetValues(cat, preset);
  const values = { ...base, ...(rules || {}) };
  const items = cat.options
    .filter((o) => optionApplies(cat, preset, o.name) && rules && Object.hasOwn(rules, o.name))
    .map((o) => ({ option: o, value: rules[o.name], changed: rules[o.name] !== base[o.name] }))
    .sort((a, b) => Number(b.changed) - Number(a.changed));
  const changed = items.filter((i) => i.changed);
  // The preset's own description may speak of how its match ends: only while that holds.
  const endChanged = cat.matchEnd.some((name) => values[name] !== base[name]);
  const list = (rows) =>
    h(
      "dl",
      { class: "rules-list" },
      rows.flatMap(({ option, value, changed: mark }) => [
        h("dt", { "data-option": option.name, class: mark ? "changed" : "" }, [
          optionLabel(option.name),
          mark ? h("span", { class: "badge" }, [t("rules.changed")]) : null,
        ]),
        h("dd", { "data-option": option.name }, [formatValue(option, value)]),
      ]),
    );
  return h("section", { class: "rules-summary", "data-testid": "rules-summary", "aria-label": t("rules.title") }, [
    h("p", { class: "rules-head" }, [
      h("strong", {}, [t("rules.inForce", { preset: presetLabel(preset) })]),
      " ",
      h("span", { "data-testid": "rules-match-end" }, [matchEnd(values)]),
    ]),
    !endChanged && has(`presetHelp.${preset}`) ? h("p", { class: "hint" }, [t(`presetHelp.${preset}`)]) : null,
    changed.length
      ? h("div", { class: "rules-changed", "data-testid": "rules-changed" }, [
          h("p", { class: "rules-changed-title" }, [t("rules.changedFrom", { n: changed.length })]),
          list(changed.map((i) => ({ ...i, changed: false }))),
        ])
      : h("p", { class: "muted", "data-testid": "rules-changed" }, [t("rules.asPreset")]),
    h("details", { class: "rules-all", "data-testid": "rules-all", open }, [
      h("summary", {}, [t("rules.all", { n: items.length })]),
      list(items),
    ]),
  ]);
}
