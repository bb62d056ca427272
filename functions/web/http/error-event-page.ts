import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { AccessLevel } from "../../hosting/domain/access.js";
import { fullPathOf } from "../../hosting/domain/projects.js";
import { escapeHtml, page } from "../ui/layout.js";
import { monitoredOrNothing, notFoundPage, pathParams, projectUrlOf } from "../ui/project-page.js";
import { pageIdentity, signInRedirect } from "./session-page.js";

/** One event of an error: `error-event.js` fills it from `…/events/:event_id/details.json`. */
export const endpoint = defineEndpoint(
  {
    summary: "Error event page",
    access: "public",
    params: z.object({ ...pathParams, issue_id: z.string().check(z.regex(/^\d{1,16}$/)), event_id: z.string().check(z.regex(/^[0-9a-fA-F-]{32,36}$/)) }),
  },
  async ({ c, principal, params }) => {
    if (!principal) return signInRedirect(c);
    const project = await monitoredOrNothing(principal, params, AccessLevel.reporter);
    if (!project) return notFoundPage(c, principal);
    const url = projectUrlOf(project);
    const errorUrl = `${url}/-/error_tracking/${params.issue_id}/details`;
    const table = (id: string, caption: string, head: string[]) =>
      `<table class="errors"><caption class="visually-hidden">${caption}</caption><thead><tr>${head.map((h) => `<th scope="col">${h}</th>`).join("")}</tr></thead><tbody id="${id}"></tbody></table>`;
    return c.html(
      page({
        title: `Event ${params.event_id} · ${fullPathOf(project)}`,
        ...pageIdentity(principal),
        script: "error-event",
        data: { project: url, issue: params.issue_id, event: params.event_id },
        body: `<nav class="crumbs" aria-label="Breadcrumb"><a href="/">Projects</a> › <span>${escapeHtml(fullPathOf(project))}</span> › <a href="${escapeHtml(url)}/-/error_tracking">Error Tracking</a> › <a href="${escapeHtml(errorUrl)}">Error ${escapeHtml(params.issue_id)}</a></nav>
<h1 id="title">Event ${escapeHtml(params.event_id)}</h1>
<p id="problem" class="flash error" role="alert" hidden></p>
<section aria-labelledby="summary-h"><h2 id="summary-h" class="visually-hidden">Summary</h2><dl id="summary" class="tags"></dl></section>
<section aria-labelledby="user-h"><h2 id="user-h">User</h2><dl id="user" class="tags"></dl></section>
<section aria-labelledby="tags-h"><h2 id="tags-h">Tags</h2><dl id="event-tags" class="tags"></dl></section>
<section id="contexts-s" aria-labelledby="contexts-h" hidden><h2 id="contexts-h">Contexts</h2><div id="contexts"></div></section>
<section id="request-s" aria-labelledby="request-h" hidden><h2 id="request-h">Request</h2><dl id="request" class="tags"></dl>${table("headers", "Request headers", ["Header", "Value"])}</section>
<section id="breadcrumbs-s" aria-labelledby="breadcrumbs-h" hidden><h2 id="breadcrumbs-h">Breadcrumbs</h2>${table("breadcrumbs", "Breadcrumbs, oldest first", ["Time", "Category", "Level", "Message"])}</section>
<section aria-labelledby="trace-h"><h2 id="trace-h">Stack trace</h2><p class="muted">Most recent call first; frames of your application are emphasised.</p><div id="trace"></div></section>`,
      }),
    );
  },
);
export const handler = lambda(endpoint);
