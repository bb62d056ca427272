import { defineEndpoint } from "../../../platform/http/endpoint.js";
import { lambda } from "../../../platform/http/lambda.js";
import { storageNames } from "../../../platform/config.js";
import { consolePage, escapeHtml, refusal } from "../ui/admin-page.js";

/**
 * Admin area › Plan and rebalance: what `npm run moves -- plan` and `rebalance --dry-run` print,
 * before anything starts (`admin/plan.js`, from `/admin/storage_moves/plan.json` and
 * `…/rebalance.json`), then a button that schedules it through the API, after a confirmation that
 * states the bytes and where they go.
 */
export const endpoint = defineEndpoint({ summary: "Plan and rebalance page (console)", access: "public" }, async ({ c, principal }) => {
  const refused = refusal(c, principal);
  if (refused || !principal) return refused;
  const names = storageNames();
  const select = (id: string, label: string, chosen: string | undefined) =>
    `<label for="${id}">${label}</label> <select id="${id}" name="${id}" required>${names.map((n) => `<option value="${escapeHtml(n)}"${n === chosen ? " selected" : ""}>${escapeHtml(n)}</option>`).join("")}</select>`;
  return consolePage(c, principal, {
    title: "Plan and rebalance",
    script: "plan",
    current: "/admin/storage_moves/plan",
    body: `<h1>Plan and rebalance</h1>
<p id="announce" class="visually-hidden" aria-live="polite"></p>
<section aria-labelledby="plan-h" class="card"><h2 id="plan-h">Move everything off a storage</h2>
<form id="plan-form" class="filters">${select("source", "From", names[0])} ${select("destination", "To", names[1])} <button type="submit">Show the plan</button></form>
<p id="plan-problem" class="flash error" role="alert" hidden></p>
<pre id="plan-text" class="terminal" hidden></pre>
<p><button type="button" id="plan-run" class="primary" disabled>Schedule this move</button> <span id="plan-done" class="muted"></span></p></section>
<section aria-labelledby="rebalance-h" class="card"><h2 id="rebalance-h">Rebalance by weight</h2>
<form id="rebalance-form" class="filters"><label for="tolerance">Tolerance (percentage points)</label> <input id="tolerance" name="tolerance" type="number" min="0" max="100" step="0.5" value="5"> <button type="submit">Show the plan</button></form>
<p id="rebalance-problem" class="flash error" role="alert" hidden></p>
<pre id="rebalance-text" class="terminal" hidden></pre>
<p><button type="button" id="rebalance-run" class="primary" disabled>Schedule these moves</button></p>
<ol id="rebalance-log" class="path"></ol></section>
<dialog id="confirm" aria-labelledby="confirm-text"><form method="dialog"><p id="confirm-text"></p><div class="actions"><button value="cancel" type="submit">Back</button> <button value="ok" type="submit" class="primary" id="confirm-ok">Confirm</button></div></form></dialog>`,
  });
});
export const handler = lambda(endpoint);
