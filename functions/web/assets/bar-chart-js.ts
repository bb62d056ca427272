/**
 * Bar charts of an error's activity (`bar-chart.js`): a pure function from `[unix seconds, events]`
 * buckets (the `frequency` and `frequency_30d` series of the UI JSON) to SVG markup, which the page
 * modules put in place. The operator console draws its throughput (bytes/s, moves/min) with it too. Pure so it is tested on its own, in Node (test/web/bar-chart.test.ts).
 *
 * - Allowed by the pages' Content-Security-Policy: no script, no `style` attribute; colours are SVG
 *   presentation attributes and the stylesheet's classes.
 * - Readable without colour: bar heights with an outline, a baseline, and (in the large size) axis
 *   labels with the scale's top value.
 * - For screen readers: `role="img"` named by its `<title>`, a `<desc>` summary (total, busiest
 *   bucket, time span), and a visually hidden list with the count of every bucket.
 * Every text that goes into the markup is escaped, whatever its source.
 */
export const BAR_CHART_JS = String.raw`
const esc = (v) => String(v).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
const round = (n) => Math.round(n * 100) / 100;
const plural = (n, word) => n + " " + word + (n === 1 ? "" : "s");

const SIZES = {
  small: { width: 120, height: 28, left: 0, right: 0, top: 2, bottom: 2 },
  large: { width: 640, height: 170, left: 40, right: 24, top: 12, bottom: 26 },
};

/**
 * buckets: [[unix seconds of the bucket's start, events], ...], oldest first.
 * opts: id (unique in the page, for the ARIA references), unit ("minute" | "hour" | "day"), size
 * ("small" | "large"), title (the accessible name; a default names the period), timeZone (for the
 * times' labels; the browser's own when omitted; days are labelled in UTC, their buckets' zone),
 * noun (what is counted, "event" by default), format (a value in words, for values that are not
 * counts, e.g. a rate; then the summary names the peak and the average rather than a total), empty
 * (what an all-zero large chart says instead of "No events").
 */
export function barChart(buckets, opts) {
  const o = Object.assign({ id: "chart", unit: "hour", size: "large", noun: "event" }, opts);
  const hourly = o.unit !== "day";
  const say = o.format || ((n) => plural(n, o.noun));
  const large = o.size === "large";
  // A formatted scale ("12.5 KiB/s") needs more room on the left than a count.
  const s = Object.assign({}, SIZES[large ? "large" : "small"], large && o.format ? { left: 72 } : {});
  const list = (Array.isArray(buckets) ? buckets : []).map(([t, n]) => [Number(t), Math.max(0, Number(n) || 0)]);
  const period = "last " + plural(list.length, o.unit);
  const title = o.title || o.noun[0].toUpperCase() + o.noun.slice(1) + "s per " + o.unit + ", " + period;
  // A day bucket is a UTC day: labelled in UTC, or it would carry the previous date west of Greenwich.
  const zone = !hourly ? { timeZone: "UTC" } : o.timeZone ? { timeZone: o.timeZone } : {};
  const axisFmt = new Intl.DateTimeFormat("en", hourly ? { hour: "2-digit", minute: "2-digit", hourCycle: "h23", ...zone } : { month: "short", day: "numeric", ...zone });
  const fullFmt = new Intl.DateTimeFormat("en", hourly ? { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23", ...zone } : { month: "short", day: "numeric", year: "numeric", ...zone });
  const axis = (t) => axisFmt.format(new Date(t * 1000));
  const full = (t) => fullFmt.format(new Date(t * 1000));

  const total = list.reduce((sum, [, n]) => sum + n, 0);
  const max = list.reduce((m, [, n]) => Math.max(m, n), 0);
  const peak = list.find(([, n]) => n === max);
  const span = list.length ? " From " + full(list[0][0]) + " to " + full(list[list.length - 1][0]) + "." : "";
  const summary = list.length === 0
    ? "No " + o.noun + " counts for this period."
    : o.format
      ? (max > 0 ? "Peak " + say(max) + " in the " + o.unit + " of " + full(peak[0]) + ", average " + say(Math.round(total / list.length)) + " over the " + period + "." : "None in the " + period + ".") + span
      : say(total) + " in the " + period + (max > 0 ? "; the busiest " + o.unit + " was " + full(peak[0]) + " with " + say(max) + "." : ".") + span;

  const plotW = s.width - s.left - s.right;
  const plotH = s.height - s.top - s.bottom;
  const base = s.top + plotH;
  const slot = list.length ? plotW / list.length : plotW;
  const barW = Math.max(1, slot * 0.72);
  const parts = [];
  list.forEach(([t, n], i) => {
    const h = max > 0 ? (n / max) * plotH : 0;
    const x = s.left + i * slot + (slot - barW) / 2;
    parts.push('<rect class="bar" data-count="' + n + '" x="' + round(x) + '" y="' + round(base - h) + '" width="' + round(barW) + '" height="' + round(h) +
      '" fill="#4a7fd0" stroke="#123a75" stroke-width="' + (h > 0 ? 1 : 0) + '"><title>' + esc(full(t) + ": " + say(n)) + "</title></rect>");
  });
  parts.push('<line class="baseline" x1="' + s.left + '" y1="' + base + '" x2="' + (s.width - s.right) + '" y2="' + base + '" stroke="#1f1f24" stroke-width="1"/>');
  if (large) {
    const text = (x, y, anchor, value) => '<text x="' + round(x) + '" y="' + round(y) + '" text-anchor="' + anchor + '" font-size="11" fill="#1f1f24">' + esc(value) + "</text>";
    parts.push(text(s.left - 6, base + 4, "end", "0"));
    if (max > 0) {
      parts.push('<line class="gridline" x1="' + s.left + '" y1="' + s.top + '" x2="' + (s.width - s.right) + '" y2="' + s.top + '" stroke="#8a8a99" stroke-width="1" stroke-dasharray="3 3"/>');
      parts.push(text(s.left - 6, s.top + 4, "end", o.format ? o.format(max) : max));
    }
    // A label every 10 minutes, 6 hours or 7 days, counted back from the newest bucket so "now" is labelled.
    const every = { minute: 10, hour: 6, day: 7 }[o.unit] || 6;
    list.forEach(([t], i) => {
      if ((list.length - 1 - i) % every === 0) parts.push(text(s.left + i * slot + slot / 2, s.height - 8, "middle", axis(t)));
    });
    if (total === 0) parts.push(text(s.left + plotW / 2, s.top + plotH / 2, "middle", list.length ? o.empty || "No " + o.noun + "s" : "No data"));
  }

  const id = esc(o.id);
  const svg = '<svg xmlns="http://www.w3.org/2000/svg" class="bars" role="img" aria-labelledby="' + id + '-title" aria-describedby="' + id + '-desc" viewBox="0 0 ' + s.width + " " + s.height +
    '" width="' + s.width + '" height="' + s.height + '" focusable="false"><title id="' + id + '-title">' + esc(title) + '</title><desc id="' + id + '-desc">' + esc(summary) + "</desc>" + parts.join("") + "</svg>";
  // A list rather than a table: a list row's chart sits inside the errors table, and tables do not nest well.
  const items = list.map(([t, n]) => "<li>" + esc(full(t)) + ': <data value="' + n + '">' + esc(say(n)) + "</data></li>").join("");
  const data = '<ul class="visually-hidden chart-data" aria-label="' + esc(title) + '">' + items + "</ul>";
  return '<div class="chart ' + (large ? "large" : "small") + '">' + svg + data + "</div>";
}

/** Puts a chart's markup in place (a template parses it; nothing in it runs). */
export function showChart(target, markup) {
  const t = document.createElement("template");
  t.innerHTML = markup;
  target.replaceChildren(t.content);
}
`;
