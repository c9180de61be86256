// A player's places in rated matches, in words.
import { ordinal, t } from "../i18n.js";

/** "1st: once, 2nd: 3 times": the places of rated matches, written out. */
export function placesText(placings) {
  const entries = Object.entries(placings)
    .map(([place, count]) => [Number(place), count])
    .sort((a, b) => a[0] - b[0]);
  if (!entries.length) return t("player.placesNone");
  return entries
    .map(([place, count]) => t("player.placeTimes", { place: ordinal(place), times: t("player.times", { n: count }) }))
    .join(", ");
}
