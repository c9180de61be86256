// From `view.legal` to an action to send.

/**
 * An entry of `view.legal` as an action: what it `needs` (a colour, a target) chosen by
 * `choose` from the `colors` or `targets` it lists, and nothing else.
 */
export function complete(entry, choose = (options) => options[Math.floor(Math.random() * options.length)]) {
  const { needs = [], colors, targets, ...action } = entry;
  for (const need of needs || []) action[need] = choose(need === "color" ? colors : targets);
  return action;
}
