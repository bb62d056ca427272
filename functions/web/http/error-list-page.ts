import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { AccessLevel } from "../../hosting/domain/access.js";
import { fullPathOf } from "../../hosting/domain/projects.js";
import { escapeHtml, page } from "../ui/layout.js";
import { monitoredOrNothing, notFoundPage, pathParams, projectUrlOf } from "../ui/project-page.js";
import { pageIdentity, signInRedirect } from "./session-page.js";

/** Monitor › Error Tracking: the shell; `error-list.js` fills it from `error_tracking.json` and polls. */
export const endpoint = defineEndpoint({ summary: "Error list page", access: "public", params: z.object(pathParams) }, async ({ c, principal, params }) => {
  if (!principal) return signInRedirect(c);
  const project = await monitoredOrNothing(principal, params, AccessLevel.reporter);
  if (!project) return notFoundPage(c, principal);
  const url = projectUrlOf(project);
  const option = (value: string, label: string) => `<option value="${value}">${label}</option>`;
  return c.html(
    page({
      title: `Error Tracking · ${fullPathOf(project)}`,
      ...pageIdentity(principal),
      script: "error-list",
      data: { project: url },
      body: `<nav class="crumbs" aria-label="Breadcrumb"><a href="/">Projects</a> › <span>${escapeHtml(fullPathOf(project))}</span> › Monitor › Error Tracking</nav>
<h1>Errors</h1>
<form id="filters" class="filters" role="search">
  <label for="status">Status</label>
  <select id="status" name="status">${option("unresolved", "Unresolved")}${option("resolved", "Resolved")}${option("ignored", "Ignored")}</select>
  <label for="search">Search</label>
  <input id="search" name="search" type="search" maxlength="200" placeholder="Title, message or culprit">
  <label for="release">Release</label>
  <input id="release" name="release" type="text" maxlength="200" placeholder="Any">
  <label for="environment">Environment</label>
  <input id="environment" name="environment" type="text" maxlength="200" placeholder="Any">
  <label for="sort">Sort by</label>
  <select id="sort" name="sort">${option("last_seen", "Last seen")}${option("first_seen", "First seen")}${option("frequency", "Frequency")}</select>
  <button type="submit">Apply</button>
</form>
<p id="announce" class="visually-hidden" aria-live="polite"></p>
<p id="problem" class="flash error" role="alert" hidden></p>
<table class="errors">
  <caption class="visually-hidden">Errors of ${escapeHtml(fullPathOf(project))}</caption>
  <thead><tr><th scope="col">Error</th><th scope="col" class="num">Events</th><th scope="col" class="num">Users</th><th scope="col">First seen</th><th scope="col">Last seen</th><th scope="col">Last 24 hours</th></tr></thead>
  <tbody id="rows"><tr><td colspan="6" class="muted">Loading…</td></tr></tbody>
</table>
<nav class="pager" aria-label="Pagination"><button type="button" id="prev" disabled>‹ Previous</button> <button type="button" id="next" disabled>Next ›</button></nav>
<p class="muted"><a href="${escapeHtml(url)}/-/settings/monitor">Error tracking settings</a> (Maintainers)</p>`,
    }),
  );
});
export const handler = lambda(endpoint);
