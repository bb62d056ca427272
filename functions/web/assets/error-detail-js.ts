/**
 * One error: counters and latest-event tags from details.json / stack_trace.json, the stack trace
 * (most recent call first, in-app frames emphasised and open), its events, and the status actions.
 */
export const ERROR_DETAIL_JS = String.raw`
import { $, el, request, messageOf, show, announce, when, poller } from "./common.js";
import { frame } from "./frames.js";
import { loadEvents } from "./error-events.js";
import { barChart, showChart } from "./bar-chart.js";

const base = document.body.dataset.project + "/-/error_tracking";
const id = document.body.dataset.issue;
let traceShown = "";
let chartsShown = "";

// Charts: hourly bars for 24 hours, daily for 30; redrawn only when a count changed. A tracker that
// sends no series gets a note in the chart's place.
function renderCharts(e) {
  const series = [[e.frequency, "chart-24h", "hour", "Events per hour, last 24 hours"], [e.frequency_30d, "chart-30d", "day", "Events per day, last 30 days"]];
  const key = JSON.stringify(series.map(([s]) => s));
  if (key === chartsShown) return;
  chartsShown = key;
  for (const [s, target, unit, title] of series) {
    if (Array.isArray(s) && s.length) showChart($("#" + target), barChart(s, { id: target, unit, size: "large", title }));
    else $("#" + target).replaceChildren(el("p", { class: "muted" }, "The tracker sent no counts for this period."));
  }
}

function pairs(target, list) {
  target.replaceChildren(...list.filter(([, v]) => v !== null && v !== undefined && v !== "").flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, v)]));
}

function renderStatus(status) {
  $("#status").textContent = status;
  for (const b of document.querySelectorAll("[data-status]")) b.disabled = b.dataset.status === status;
}

async function load() {
  const [d, t] = await Promise.all([request("GET", base + "/" + id + "/details.json"), request("GET", base + "/" + id + "/stack_trace.json")]);
  if (!d.ok) { show($("#problem"), messageOf(d)); return d.status === 204 ? 1000 : 0; }
  show($("#problem"), "");
  const e = d.data.error;
  $("#title").textContent = e.title;
  document.title = e.title + " · Error Tracking";
  $("#culprit").textContent = e.culprit || "";
  renderStatus(e.status);
  pairs($("#counters"), [["Events", e.count], ["Users", e.user_count], ["First seen", when(e.first_seen)], ["Last seen", when(e.last_seen)],
    ["First release", e.first_release_short_version], ["Last release", e.last_release_short_version]]);
  renderCharts(e);
  const ev = t.ok ? t.data.error : {};
  const tags = Object.assign({}, ev.tags || {});
  const rows = [["Received", when(ev.date_received)], ["Level", (e.tags || {}).level], ["Logger", (e.tags || {}).logger],
    ["Environment", ev.environment || tags.environment], ["Release", ev.release || tags.release || e.last_release_version]];
  for (const k of ["environment", "release", "level"]) delete tags[k];
  pairs($("#tags"), rows.concat(Object.entries(tags)));
  const frames = (ev.stack_trace_entries || []).slice().reverse();
  const key = JSON.stringify(frames);
  if (key !== traceShown) {
    traceShown = key;
    $("#trace").replaceChildren(...(frames.length ? frames.map(frame) : [el("p", { class: "muted" }, "No stack trace for this error.")]));
  }
  await loadEvents();
  return d.poll;
}

for (const b of document.querySelectorAll("[data-status]")) {
  b.addEventListener("click", async () => {
    const r = await request("PUT", base + "/" + id + ".json", { status: b.dataset.status });
    if (!r.ok) { show($("#problem"), messageOf(r)); return; }
    renderStatus(b.dataset.status);
    announce("Status changed to " + b.dataset.status);
  });
}
poller(load).start();
`;
