import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { AccessLevel } from "../../hosting/domain/access.js";
import { fullPathOf } from "../../hosting/domain/projects.js";
import { escapeHtml, page } from "../ui/layout.js";
import { monitoredOrNothing, notFoundPage, pathParams, projectUrlOf } from "../ui/project-page.js";
import { pageIdentity, signInRedirect } from "./session-page.js";

/**
 * One error: `error-detail.js` fills counters, the activity charts, tags and the stack trace from `details.json` and
 * `stack_trace.json`, and PUTs the status. The actions are shown to Developers+ (who may update).
 */
export const endpoint = defineEndpoint(
  { summary: "Error detail page", access: "public", params: z.object({ ...pathParams, issue_id: z.string().check(z.regex(/^\d{1,16}$/)) }) },
  async ({ c, principal, params }) => {
    if (!principal) return signInRedirect(c);
    const project = await monitoredOrNothing(principal, params, AccessLevel.reporter);
    if (!project) return notFoundPage(c, principal);
    const canUpdate = !!(await monitoredOrNothing(principal, params, AccessLevel.developer));
    const url = projectUrlOf(project);
    const actions = canUpdate
      ? `<div class="actions" role="group" aria-label="Change status"><button type="button" data-status="resolved" class="primary">Resolve</button> <button type="button" data-status="ignored">Ignore</button> <button type="button" data-status="unresolved">Unresolve</button></div>`
      : "";
    return c.html(
      page({
        title: `Error ${params.issue_id} · ${fullPathOf(project)}`,
        ...pageIdentity(principal),
        script: "error-detail",
        data: { project: url, issue: params.issue_id },
        body: `<nav class="crumbs" aria-label="Breadcrumb"><a href="/">Projects</a> › <span>${escapeHtml(fullPathOf(project))}</span> › <a href="${escapeHtml(url)}/-/error_tracking">Error Tracking</a></nav>
<h1 id="title">Error ${escapeHtml(params.issue_id)}</h1>
<p id="culprit" class="muted"></p>
<p>Status: <strong id="status">…</strong></p>
${actions}
<p id="announce" class="visually-hidden" aria-live="polite"></p>
<p id="problem" class="flash error" role="alert" hidden></p>
<section aria-labelledby="counters-h"><h2 id="counters-h" class="visually-hidden">Counters</h2><dl id="counters" class="counters"></dl></section>
<section aria-labelledby="activity-h"><h2 id="activity-h">Activity</h2><h3 class="chart-heading">Last 24 hours, per hour</h3><div id="chart-24h"></div><h3 class="chart-heading">Last 30 days, per day</h3><div id="chart-30d"></div></section>
<section aria-labelledby="tags-h"><h2 id="tags-h">Latest event</h2><dl id="tags" class="tags"></dl></section>
<section aria-labelledby="trace-h"><h2 id="trace-h">Stack trace</h2><p class="muted">Most recent call first; frames of your application are emphasised.</p><div id="trace"></div></section>
<section aria-labelledby="events-h"><h2 id="events-h">Events</h2>
<p id="events-problem" class="flash error" role="alert" hidden></p>
<table class="errors"><caption class="visually-hidden">Events of this error, newest first</caption>
<thead><tr><th scope="col">When</th><th scope="col">Title</th><th scope="col">Release</th><th scope="col">Environment</th><th scope="col">User</th><th scope="col">Event</th></tr></thead>
<tbody id="event-rows"><tr><td colspan="6" class="muted">Loading…</td></tr></tbody></table>
<nav class="pager" aria-label="Events pagination"><button type="button" id="events-newer" disabled>‹ Newer</button> <button type="button" id="events-older" disabled>Older ›</button></nav></section>`,
      }),
    );
  },
);
export const handler = lambda(endpoint);
