/**
 * Admin area › Plan and rebalance (`/-/assets/admin/plan.js`): each form shows the lines the CLI
 * prints (`plan`, `rebalance --dry-run`), from the console's JSON, before anything starts. Then a
 * button schedules it, after a confirmation that states the bytes and where they go: a storage-wide
 * move is one POST per type (as `npm run moves -- schedule`); a rebalance runs its moves from this
 * page as the CLI does, through the per-container POST, four at a time, each watched to its end.
 */
export const PLAN_JS = String.raw`
import { $, el, request, messageOf, show, announce } from "/-/assets/common.js";
import { bytesText, confirmWith, TERMINAL, PLURAL } from "./console.js";

let plan = null;
let rebalance = null;

function lines(target, list) {
  target.textContent = list.join("\n");
  target.hidden = false;
}

$("#plan-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const q = new URLSearchParams({ source_storage_name: $("#source").value, destination_storage_name: $("#destination").value });
  $("#plan-run").disabled = true;
  $("#plan-done").textContent = "";
  const r = await request("GET", "/admin/storage_moves/plan.json?" + q);
  if (!r.ok) { show($("#plan-problem"), messageOf(r)); $("#plan-text").hidden = true; plan = null; return; }
  show($("#plan-problem"), "");
  plan = r.data.plan;
  lines($("#plan-text"), r.data.lines);
  const repositories = plan.types.reduce((n, t) => n + t.repositories, 0);
  $("#plan-run").disabled = !plan.fits || repositories === 0;
  $("#plan-run").textContent = repositories ? "Schedule this move" : "Nothing to move";
  announce(r.data.lines[r.data.lines.length - 1]);
});

$("#plan-run").addEventListener("click", async () => {
  if (!plan) return;
  const types = plan.types.filter((t) => t.repositories > 0);
  const repositories = types.reduce((n, t) => n + t.repositories, 0);
  const ok = await confirmWith("Move " + repositories + " repositories, " + bytesText(plan.total_bytes) + " in all, off " + plan.source_storage_name + " to " + plan.destination_storage_name + "? " +
    types.map((t) => t.repositories + " " + t.type + (t.repositories === 1 ? "" : "s") + " (" + bytesText(t.bytes) + ")").join(", ") + ". They become read-only a page at a time while they move.", { ok: "Move " + bytesText(plan.total_bytes) + " to " + plan.destination_storage_name });
  if (!ok) return;
  $("#plan-run").disabled = true;
  for (const t of types) {
    const r = await request("POST", "/api/v4/" + t.type + "_repository_storage_moves", { source_storage_name: plan.source_storage_name, destination_storage_name: plan.destination_storage_name });
    if (!r.ok) { show($("#plan-problem"), messageOf(r)); return; }
  }
  $("#plan-done").replaceChildren("Scheduled. Follow it on ", el("a", { href: "/admin/storage_moves" }, "Storage moves"), ".");
  announce("Scheduled");
});

$("#rebalance-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  $("#rebalance-run").disabled = true;
  const r = await request("GET", "/admin/storage_moves/rebalance.json?" + new URLSearchParams({ tolerance: $("#tolerance").value || "5" }));
  if (!r.ok) { show($("#rebalance-problem"), messageOf(r)); $("#rebalance-text").hidden = true; rebalance = null; return; }
  show($("#rebalance-problem"), "");
  rebalance = r.data.plan;
  lines($("#rebalance-text"), r.data.lines);
  $("#rebalance-run").disabled = rebalance.moves.length === 0;
  $("#rebalance-run").textContent = rebalance.moves.length ? "Schedule these " + rebalance.moves.length + " moves" : "Nothing to move";
});

function log(text) { $("#rebalance-log").append(el("li", {}, text)); }

$("#rebalance-run").addEventListener("click", async () => {
  if (!rebalance) return;
  const moves = rebalance.moves;
  const to = new Map();
  for (const m of moves) { const t = to.get(m.to) || { n: 0, bytes: 0 }; t.n++; t.bytes += m.bytes; to.set(m.to, t); }
  const total = moves.reduce((n, m) => n + m.bytes, 0);
  const ok = await confirmWith("Run " + moves.length + " moves, " + bytesText(total) + " in all: " + [...to].map(([name, t]) => t.n + " to " + name + " (" + bytesText(t.bytes) + ")").join(", ") +
    "? This page runs them four at a time, smallest first: keep it open until they are done.", { ok: "Move " + bytesText(total) });
  if (!ok) return;
  $("#rebalance-run").disabled = true;
  $("#rebalance-log").replaceChildren();
  const tally = { finished: 0, failed: 0, skipped: 0 };
  const queue = [...moves];
  async function runOne(m) {
    const r = await request("POST", "/api/v4/" + PLURAL[m.kind] + "/" + m.id + "/repository_storage_moves", { destination_storage_name: m.to });
    if (!r.ok) { tally.skipped++; log("skipped " + m.kind + " " + m.id + ": " + messageOf(r)); return; }
    for (;;) {
      const now = await request("GET", "/api/v4/" + m.kind + "_repository_storage_moves/" + r.data.id);
      // A move that can no longer be read (gone, or the session ended) is not followed forever: counted failed.
      if (!now.ok) { tally.failed++; log(m.kind + " " + m.id + " → " + m.to + ": move " + r.data.id + " could not be read: " + messageOf(now)); return; }
      if (TERMINAL.includes(now.data.state)) {
        if (now.data.state === "finished") tally.finished++; else tally.failed++;
        log(m.kind + " " + m.id + " → " + m.to + ": move " + now.data.id + " " + now.data.state + (now.data.error_message ? " (" + now.data.error_message + ")" : ""));
        return;
      }
      await new Promise((res) => setTimeout(res, 1000));
    }
  }
  await Promise.all(Array.from({ length: Math.min(4, queue.length) }, async () => { for (let m = queue.shift(); m; m = queue.shift()) await runOne(m); }));
  log(tally.finished + " finished, " + tally.failed + " failed, " + tally.skipped + " skipped.");
  announce(tally.finished + " finished, " + tally.failed + " failed, " + tally.skipped + " skipped");
  $("#rebalance-form").requestSubmit();
});
`;
