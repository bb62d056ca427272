/** The error list: filters in the URL (bookmarkable, Back works), cursor pages, polling. */
export const ERROR_LIST_JS = String.raw`
import { $, el, request, messageOf, show, announce, when, ago, poller } from "./common.js";
import { barChart, showChart } from "./bar-chart.js";

const base = document.body.dataset.project + "/-/error_tracking";
const params = new URLSearchParams(location.search);
const state = { status: params.get("status") || "unresolved", search: params.get("search") || "", release: params.get("release") || "", environment: params.get("environment") || "", sort: params.get("sort") || "last_seen", cursor: params.get("cursor") || "" };
let pages = {};
let lastCount = -1;

$("#status").value = state.status;
$("#search").value = state.search;
$("#release").value = state.release;
$("#environment").value = state.environment;
$("#sort").value = state.sort;

function syncUrl() {
  const q = new URLSearchParams();
  if (state.status !== "unresolved") q.set("status", state.status);
  if (state.search) q.set("search", state.search);
  for (const k of ["release", "environment"]) if (state[k]) q.set(k, state[k]);
  if (state.sort !== "last_seen") q.set("sort", state.sort);
  if (state.cursor) q.set("cursor", state.cursor);
  history.replaceState(null, "", location.pathname + (q.toString() ? "?" + q : ""));
}

function row(e) {
  return el("tr", {},
    el("td", {}, el("a", { href: base + "/" + encodeURIComponent(e.id) + "/details" }, e.title || "(no title)"), el("small", {}, e.culprit || "")),
    el("td", { class: "num" }, e.count),
    el("td", { class: "num" }, e.user_count),
    el("td", {}, el("time", { datetime: e.first_seen, title: when(e.first_seen) }, ago(e.first_seen))),
    el("td", {}, el("time", { datetime: e.last_seen, title: when(e.last_seen) }, ago(e.last_seen))),
    activity(e));
}

// Charts: the last 24 hours of frequency, or a note when the tracker sent no counts.
function activity(e) {
  const cell = el("td", { class: "activity" });
  if (Array.isArray(e.frequency) && e.frequency.length) showChart(cell, barChart(e.frequency, { id: "chart-" + e.id, unit: "hour", size: "small", title: "Events per hour, last 24 hours, of " + (e.title || "this error") }));
  else cell.append(el("span", { class: "muted" }, "No data"));
  return cell;
}

async function load() {
  const q = new URLSearchParams({ issue_status: state.status, sort: state.sort });
  if (state.search) q.set("search_term", state.search);
  for (const k of ["release", "environment"]) if (state[k]) q.set(k, state[k]);
  if (state.cursor) q.set("cursor", state.cursor);
  const r = await request("GET", base + ".json?" + q);
  const rows = $("#rows");
  if (!r.ok) {
    show($("#problem"), messageOf(r));
    rows.replaceChildren(el("tr", {}, el("td", { colspan: 6, class: "muted" }, "No errors to show.")));
    return r.status === 204 ? 1000 : 0;
  }
  show($("#problem"), "");
  const errors = r.data.errors || [];
  rows.replaceChildren(...(errors.length ? errors.map(row) : [el("tr", {}, el("td", { colspan: 6, class: "muted" }, "No " + state.status + " errors."))]));
  pages = r.data.pagination || {};
  $("#prev").disabled = !pages.previous;
  $("#next").disabled = !pages.next;
  if (errors.length !== lastCount) announce(errors.length + " " + state.status + " error" + (errors.length === 1 ? "" : "s") + " shown");
  lastCount = errors.length;
  return r.poll;
}

const poll = poller(load);
function reload() { lastCount = -1; syncUrl(); poll.now(); }

$("#filters").addEventListener("submit", (ev) => {
  ev.preventDefault();
  Object.assign(state, { status: $("#status").value, search: $("#search").value.trim(), release: $("#release").value.trim(), environment: $("#environment").value.trim(), sort: $("#sort").value, cursor: "" });
  reload();
});
for (const id of ["#status", "#sort"]) $(id).addEventListener("change", () => $("#filters").requestSubmit());
$("#prev").addEventListener("click", () => { state.cursor = pages.previous?.cursor || ""; reload(); });
$("#next").addEventListener("click", () => { state.cursor = pages.next?.cursor || ""; reload(); });
poll.start();
`;
