// The profile's rating chart, drawn by hand as SVG: no chart library fits a client with
// no build step and no requests to other hosts, and a line with two axes is little code.
// The rating after each recent rated match, oldest first (the first point is the rating
// before the oldest of them), a value axis with round ticks, dates under the points and
// the values of the first, last, lowest and highest points written beside them.
import { svg as node } from "../dom.js";
import { language, t } from "../i18n.js";

const HEIGHT = 220;
const MARGIN = { left: 48, right: 24, top: 20, bottom: 34 };
const DATE_LABELS = 4;

/** Round values (steps of 1, 2 or 5 times a power of ten) from below `low` to above `high`. */
export function ticks(low, high, count = 4) {
  const raw = Math.max(high - low, 1) / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((f) => f * magnitude).find((s) => s >= raw);
  const out = [];
  for (let v = Math.floor(low / step) * step; v < high + step; v += step) out.push(v);
  return out;
}

/** The chart's points, oldest first: `{date, value}`; none without a rated match. */
export function ratingSeries(recent) {
  const rated = recent.filter((m) => m.ratingAfter !== null && m.ratingAfter !== undefined).reverse();
  if (!rated.length) return [];
  const first = { date: new Date(rated[0].started), value: rated[0].ratingBefore };
  return [first, ...rated.map((m) => ({ date: new Date(m.finished), value: m.ratingAfter }))];
}

/** Which points get a date under them: the first, the last and a few evenly between. */
function labelled(count) {
  const out = new Set([0, count - 1]);
  const steps = Math.min(DATE_LABELS - 1, count - 1);
  for (let i = 1; i < steps; i += 1) out.add(Math.round((i * (count - 1)) / steps));
  return out;
}

/** Draw the series of `recent` (the profile's matches, newest first) into `svg`. */
export function ratingChart(svg, recent) {
  const width = Math.max(280, Math.round(svg.getBoundingClientRect().width) || 640);
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${width} ${HEIGHT}`);
  const series = ratingSeries(recent);
  svg.dataset.points = String(series.length);
  if (!series.length) {
    const empty = t("player.chartEmpty");
    svg.setAttribute("aria-label", empty);
    svg.append(node("text", { x: width / 2, y: HEIGHT / 2, "text-anchor": "middle", class: "chart-empty" }, [empty]));
    return;
  }
  const day = new Intl.DateTimeFormat(language(), { day: "numeric", month: "short" });
  const full = new Intl.DateTimeFormat(language(), { dateStyle: "medium" });
  const values = series.map((p) => p.value);
  const axis = ticks(Math.min(...values), Math.max(...values));
  const [low, high] = [axis[0], axis.at(-1)];
  const plot = { x0: MARGIN.left, x1: width - MARGIN.right, y0: HEIGHT - MARGIN.bottom, y1: MARGIN.top };
  const x = (i) => (series.length === 1 ? (plot.x0 + plot.x1) / 2 : plot.x0 + ((plot.x1 - plot.x0) * i) / (series.length - 1));
  const y = (v) => plot.y0 - ((v - low) / (high - low || 1)) * (plot.y0 - plot.y1);

  const yAxis = node("g", { class: "chart-axis", "data-testid": "chart-y-axis" });
  for (const v of axis) {
    yAxis.append(node("line", { x1: plot.x0, x2: plot.x1, y1: y(v), y2: y(v), class: "chart-grid" }));
    yAxis.append(node("text", { x: plot.x0 - 6, y: y(v) + 4, "text-anchor": "end", "data-testid": "chart-y-tick" }, [String(v)]));
  }
  const xAxis = node("g", { class: "chart-axis", "data-testid": "chart-x-axis" });
  xAxis.append(node("line", { x1: plot.x0, x2: plot.x1, y1: plot.y0, y2: plot.y0, class: "chart-axis-line" }));
  for (const i of labelled(series.length)) {
    const anchor = series.length === 1 ? "middle" : i === 0 ? "start" : i === series.length - 1 ? "end" : "middle";
    xAxis.append(
      node("text", { x: x(i), y: plot.y0 + 20, "text-anchor": anchor, "data-testid": "chart-x-label" }, [day.format(series[i].date)]),
    );
  }
  const line = node("polyline", {
    points: series.map((p, i) => `${x(i)},${y(p.value)}`).join(" "),
    class: "chart-line",
  });
  const points = node("g", {});
  const named = new Set([0, series.length - 1, values.indexOf(Math.min(...values)), values.indexOf(Math.max(...values))]);
  series.forEach((p, i) => {
    const dot = node("circle", {
      cx: x(i),
      cy: y(p.value),
      r: 4,
      class: "chart-point",
      "data-testid": "chart-point",
      "data-value": p.value,
      "data-date": p.date.toISOString(),
    });
    dot.append(node("title", {}, [`${full.format(p.date)}: ${p.value}`]));
    points.append(dot);
    if (named.has(i)) {
      const anchor = i === 0 ? "start" : i === series.length - 1 ? "end" : "middle";
      points.append(
        node("text", { x: x(i), y: y(p.value) - 9, "text-anchor": anchor, class: "chart-value", "data-testid": "chart-value" }, [String(p.value)]),
      );
    }
  });
  svg.append(yAxis, xAxis, line, points);
  const [first, last] = [series[0], series.at(-1)];
  svg.setAttribute(
    "aria-label",
    t("player.chartSummary", { first: first.value, from: full.format(first.date), last: last.value, to: full.format(last.date) }),
  );
}
