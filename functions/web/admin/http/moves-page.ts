import { defineEndpoint } from "../../../platform/http/endpoint.js";
import { lambda } from "../../../platform/http/lambda.js";
import { storageNames } from "../../../platform/config.js";
import { groupMovesAllowed } from "../../../moves/domain/policy.js";
import { MOVE_STATES } from "../../../moves/domain/records.js";
import { consolePage, escapeHtml, refusal } from "../ui/admin-page.js";

const TYPES: Array<[string, string]> = [["project", "Projects"], ["snippet", "Snippets"], ["group", "Group wikis"]];

/**
 * Admin area › Storage moves: storage-wide moves with their progress (cancel, concurrency), the
 * throughput of the last hour, and every move with filters; `admin/moves.js` fills it from
 * `/admin/storage_moves.json` and keeps it current in place while moves run.
 */
export const endpoint = defineEndpoint({ summary: "Storage moves page (console)", access: "public" }, async ({ c, principal }) => {
  const refused = refusal(c, principal);
  if (refused || !principal) return refused;
  const option = (value: string, label: string) => `<option value="${escapeHtml(value)}">${escapeHtml(label)}</option>`;
  const types = TYPES.filter(([t]) => t !== "group" || groupMovesAllowed());
  const th = (label: string, cls = "") => `<th scope="col"${cls ? ` class="${cls}"` : ""}>${label}</th>`;
  return consolePage(c, principal, {
    title: "Storage moves",
    script: "moves",
    current: "/admin/storage_moves",
    body: `<h1>Storage moves</h1>
<p id="announce" class="visually-hidden" aria-live="polite"></p>
<p id="problem" class="flash error" role="alert" hidden></p>
<section aria-labelledby="bulk-h"><h2 id="bulk-h">Storage-wide moves</h2>
<p class="muted">The latest move of each type off each storage. <a href="/admin/storage_moves/plan">Plan one</a>.</p>
<table class="errors bulk"><caption class="visually-hidden">Storage-wide moves, newest first</caption>
<thead><tr>${th("Move")}${th("Progress")}${th("Moves", "num")}${th("Bytes", "num")}${th("Time left")}${th("Actions")}</tr></thead>
<tbody id="bulk-rows"><tr><td colspan="6" class="muted">Loading…</td></tr></tbody></table></section>
<section aria-labelledby="rate-h"><h2 id="rate-h">Throughput, last hour</h2>
<div class="charts"><div><h3 class="chart-heading">Bytes copied per second</h3><div id="chart-bytes"></div></div><div><h3 class="chart-heading">Moves finished per minute</h3><div id="chart-moves"></div></div></div></section>
<section aria-labelledby="moves-h"><h2 id="moves-h">Moves</h2>
<form id="filters" class="filters" role="search">
  <label for="type">Type</label>
  <select id="type" name="type">${option("", "All")}${types.map(([v, l]) => option(v, l)).join("")}</select>
  <label for="state">State</label>
  <select id="state" name="state">${option("", "Any")}${MOVE_STATES.map((s) => option(s, s)).join("")}</select>
  <label for="storage">Storage</label>
  <select id="storage" name="storage">${option("", "Any")}${storageNames().map((s) => option(s, s)).join("")}</select>
  <button type="submit">Apply</button>
</form>
<table class="errors moves"><caption class="visually-hidden">Storage moves, newest first</caption>
<thead><tr>${th("Move")}${th("Repository")}${th("State")}${th("From → to")}${th("Created")}${th("Updated")}</tr></thead>
<tbody id="rows"><tr><td colspan="6" class="muted">Loading…</td></tr></tbody></table>
<nav class="pager" aria-label="Moves pagination"><button type="button" id="newest" disabled>« Newest</button> <button type="button" id="older" disabled>Older ›</button></nav></section>
<dialog id="confirm" aria-labelledby="confirm-text"><form method="dialog"><p id="confirm-text"></p><p id="confirm-field" hidden><label for="confirm-input">Moves at once</label> <input id="confirm-input" type="number" min="1" max="500" step="1"></p><div class="actions"><button value="cancel" type="submit">Back</button> <button value="ok" type="submit" class="primary" id="confirm-ok">Confirm</button></div></form></dialog>`,
  });
});
export const handler = lambda(endpoint);
