import { defineEndpoint } from "../../../platform/http/endpoint.js";
import { lambda } from "../../../platform/http/lambda.js";
import { consolePage, refusal } from "../ui/admin-page.js";

/** Admin area › Storages: the shell `admin/storages.js` fills from `/admin/storages.json`, and polls. */
export const endpoint = defineEndpoint({ summary: "Storages page (console)", access: "public" }, async ({ c, principal }) => {
  const refused = refusal(c, principal);
  if (refused || !principal) return refused;
  return consolePage(c, principal, {
    title: "Storages",
    script: "storages",
    current: "/admin/storages",
    body: `<h1>Storages</h1>
<p id="announce" class="visually-hidden" aria-live="polite"></p>
<p id="problem" class="flash error" role="alert" hidden></p>
<p id="summary" class="muted">Loading…</p>
<p class="legend" aria-hidden="true"><span class="key used"></span> on it, staying <span class="key out"></span> leaving <span class="key in"></span> arriving <span class="key free"></span> free</p>
<div id="storages" class="storages"></div>`,
  });
});
export const handler = lambda(endpoint);
