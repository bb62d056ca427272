/**
 * Admin area › Storage moves (`/-/assets/admin/moves.js`): storage-wide moves with their progress,
 * cancel and concurrency (each confirmed first, through the API's own routes), the throughput charts
 * (the error pages' chart code), and every move with filters and keyset pages. Polled at the interval
 * the JSON asks for; rows are updated in place, so a poll changes only the text that changed.
 */
export const MOVES_JS = String.raw`
import { $, el, request, messageOf, show, announce, when, ago, poller } from "/-/assets/common.js";
import { barChart, showChart } from "/-/assets/bar-chart.js";
import { bytesText, durationText, patch, placeholder, setText, setAttr, field, confirmWith, TYPE_NAMES } from "./console.js";

const params = new URLSearchParams(location.search);
const state = { type: params.get("type") || "", state: params.get("state") || "", storage: params.get("storage") || "", cursor: params.get("cursor") || "" };
let next = "";
let chartsShown = "";
let lastRunning = -1;

$("#type").value = state.type;
$("#state").value = state.state;
$("#storage").value = state.storage;

function syncUrl() {
  const q = new URLSearchParams();
  for (const k of ["type", "state", "storage", "cursor"]) if (state[k]) q.set(k, state[k]);
  history.replaceState(null, "", location.pathname + (q.toString() ? "?" + q : ""));
}

const COUNTS = ["scheduled", "started", "replicated", "finished", "failed", "skipped"];

function bulkRow(b) {
  const key = b.type + "-" + b.source_storage_name;
  return el("tr", { "data-bulk": key },
    el("th", { scope: "row" }, el("span", { "data-f": "what" }), el("small", { "data-f": "when" }), el("small", { "data-f": "status" })),
    el("td", { class: "progress-cell" }, el("progress", { max: "1", value: "0", "data-f": "progress", "aria-label": TYPE_NAMES[b.type] + " moves off " + b.source_storage_name + ", part done" }), el("span", { "data-f": "done" })),
    el("td", { class: "num" }, el("ul", { class: "counts" }, ...COUNTS.map((c) => el("li", {}, c + " ", el("data", { "data-f": c, value: "0" }, "0"))))),
    el("td", { class: "num" }, el("span", { "data-f": "bytes" }), el("small", { "data-f": "rate" })),
    el("td", { "data-f": "eta" }),
    el("td", {}, el("div", { class: "actions" },
      el("button", { type: "button", "data-action": "cancel" }, "Cancel"),
      el("button", { type: "button", "data-action": "concurrency" }, "Concurrency ", el("span", { "data-f": "concurrency" })))));
}

function updateBulk(row, b) {
  row.bulk = b;
  setText(field(row, "what"), TYPE_NAMES[b.type] + "s off " + b.source_storage_name + " → " + (b.destination_storage_name || "storages by weight"));
  setText(field(row, "when"), "scheduled " + when(b.scheduled_at));
  setText(field(row, "status"), b.canceled_at ? "canceled " + when(b.canceled_at) + (b.running ? ", ending" : "") : b.running ? "running" : "ended " + when(b.ended_at));
  const done = b.counts.finished + b.counts.failed + b.counts.skipped;
  setAttr(field(row, "progress"), "value", b.progress);
  setText(field(row, "done"), done + " of " + b.total_repositories + " done (" + Math.round(b.progress * 100) + "%)");
  for (const c of COUNTS) { setAttr(field(row, c), "value", b.counts[c]); setText(field(row, c), b.counts[c]); }
  setText(field(row, "bytes"), bytesText(b.bytes_done) + " of " + bytesText(b.total_bytes));
  setText(field(row, "rate"), b.bytes_per_second === null ? "" : "at " + bytesText(b.bytes_per_second) + "/s");
  setText(field(row, "eta"), b.eta_seconds === null ? (b.running ? "—" : "done") : "about " + durationText(b.eta_seconds));
  setText(field(row, "concurrency"), "(" + b.concurrency + ")");
  for (const button of row.querySelectorAll("[data-action]")) button.disabled = !b.running;
}

function moveRow(m) {
  return el("tr", {},
    el("td", {}, el("a", { href: "/admin/storage_moves/" + m.type + "/" + m.id }, TYPE_NAMES[m.type] + " move " + m.id)),
    el("td", { "data-f": "container" }),
    el("td", {}, el("span", { "data-f": "state", class: "state" }), el("small", { "data-f": "error" })),
    el("td", {}, m.source_storage_name + " → " + m.destination_storage_name),
    el("td", {}, el("time", { "data-f": "created", datetime: m.created_at, title: when(m.created_at) })),
    el("td", {}, el("time", { "data-f": "updated" })));
}

function updateMove(row, m) {
  setText(field(row, "container"), m.container ? m.container.name : "(deleted)");
  setText(field(row, "state"), m.state);
  setAttr(row, "data-state", m.state);
  setText(field(row, "error"), m.error_message || "");
  setText(field(row, "created"), ago(m.created_at));
  const updated = field(row, "updated");
  setAttr(updated, "datetime", m.updated_at);
  setAttr(updated, "title", when(m.updated_at));
  setText(updated, ago(m.updated_at));
}

function renderCharts(t) {
  const key = JSON.stringify(t);
  if (key === chartsShown) return;
  chartsShown = key;
  showChart($("#chart-bytes"), barChart(t.bytes_per_second, { id: "chart-bytes", unit: "minute", size: "large", noun: "byte per second", empty: "Nothing copied", title: "Bytes copied per second, last hour", format: (n) => bytesText(n) + "/s" }));
  showChart($("#chart-moves"), barChart(t.moves_per_minute, { id: "chart-moves", unit: "minute", size: "large", noun: "move", title: "Moves finished per minute, last hour" }));
}

async function load() {
  const q = new URLSearchParams();
  for (const k of ["type", "state", "storage", "cursor"]) if (state[k]) q.set(k, state[k]);
  const r = await request("GET", "/admin/storage_moves.json" + (q.toString() ? "?" + q : ""));
  if (!r.ok) { show($("#problem"), messageOf(r)); return 5000; }
  show($("#problem"), "");
  const bulk = r.data.bulk_moves;
  if (bulk.length) patch($("#bulk-rows"), bulk, (b) => b.type + "-" + b.source_storage_name, bulkRow, updateBulk);
  else placeholder($("#bulk-rows"), 6, "No storage-wide move yet.");
  renderCharts(r.data.throughput);
  const moves = r.data.moves;
  if (moves.length) patch($("#rows"), moves, (m) => m.type + "-" + m.id, moveRow, updateMove);
  else placeholder($("#rows"), 6, "No moves" + (state.state || state.type || state.storage ? " match these filters." : " yet."));
  next = (r.data.pagination.next || {}).cursor || "";
  $("#older").disabled = !next;
  $("#newest").disabled = !state.cursor;
  const running = bulk.filter((b) => b.running).length;
  if (running !== lastRunning) announce(running ? running + " storage-wide move" + (running === 1 ? "" : "s") + " running" : "No storage-wide move running");
  lastRunning = running;
  return r.poll;
}

const poll = poller(load);
function reload() { syncUrl(); poll.now(); }

$("#filters").addEventListener("submit", (ev) => {
  ev.preventDefault();
  Object.assign(state, { type: $("#type").value, state: $("#state").value, storage: $("#storage").value, cursor: "" });
  reload();
});
for (const id of ["#type", "#state", "#storage"]) $(id).addEventListener("change", () => $("#filters").requestSubmit());
$("#older").addEventListener("click", () => { state.cursor = next; reload(); });
$("#newest").addEventListener("click", () => { state.cursor = ""; reload(); });

$("#bulk-rows").addEventListener("click", async (ev) => {
  const button = ev.target.closest("[data-action]");
  const row = button && button.closest("tr");
  if (!row || !row.bulk) return;
  const b = row.bulk;
  const what = TYPE_NAMES[b.type].toLowerCase() + " moves off " + b.source_storage_name;
  const base = "/api/v4/" + b.type + "_repository_storage_moves";
  if (button.dataset.action === "cancel") {
    const waiting = b.counts.scheduled - b.counts.started - b.counts.replicated - b.counts.finished - b.counts.failed;
    const ok = await confirmWith("Cancel the " + what + "? No further page is scheduled; the " + Math.max(0, waiting) + " scheduled now fail and stay writable on " + b.source_storage_name + "; the " + (b.counts.started + b.counts.replicated) + " already under way run to their end.", { ok: "Cancel the " + what });
    if (!ok) return;
    const r = await request("POST", base + "/cancel", { source_storage_name: b.source_storage_name });
    if (!r.ok) { show($("#problem"), messageOf(r)); return; }
    announce(r.data.message);
  } else {
    const value = await confirmWith("How many " + what + " may run at once? It applies from the next page the move schedules.", { ok: "Change concurrency", value: b.concurrency });
    if (value === false) return;
    const r = await request("PUT", base + "/concurrency", { source_storage_name: b.source_storage_name, concurrency: Number(value) });
    if (!r.ok) { show($("#problem"), messageOf(r)); return; }
    announce("At most " + r.data.concurrency + " " + what + " at once from the next page");
  }
  poll.now();
});

syncUrl();
poll.start();
`;
