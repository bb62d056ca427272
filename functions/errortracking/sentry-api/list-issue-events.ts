import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { publicUrl } from "../../platform/http/pagination.js";
import { listErrorEvents } from "../domain/events.js";
import { findIssue, issueIdParams, trackerUser } from "./access.js";
import { sentryLink, trackerEvent } from "./views.js";

/**
 * `GET /api/0/issues/{id}/events/?full&cursor&limit`: the issue's events, newest first, paged by
 * `Link` as Sentry does. Without `full=true` each event leaves out its `entries` (Sentry's "simple" form).
 */
export const endpoint = defineEndpoint(
  {
    summary: "Tracker API: events of an issue",
    access: "public",
    params: issueIdParams,
    query: z.object({ full: z.optional(z.string()), cursor: z.optional(z.string().check(z.maxLength(500))), limit: z.optional(z.string()) }),
  },
  async ({ c, principal, params, query }) => {
    const { project, error } = await findIssue(trackerUser(principal, false), Number(params.issue_id));
    const limit = Math.min(100, Math.max(1, Number(query.limit) || 100));
    const page = await listErrorEvents(project.id, error.errorId, { cursor: query.cursor || undefined, limit });
    c.header("Link", sentryLink(publicUrl(c), page));
    const full = query.full === "true" || query.full === "1";
    return page.events.map((ev) => {
      const event = trackerEvent(error, ev);
      if (full) return event;
      const { entries: _entries, ...simple } = event;
      return simple;
    });
  },
);
export const handler = lambda(endpoint);
