import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { READ_LEVEL } from "../domain/access.js";
import { getError } from "../domain/errors.js";
import { listErrorEvents } from "../domain/events.js";
import { trackerEvent } from "../sentry-api/views.js";
import { issueIdParam, uiPathParams } from "./params.js";
import { errorNotFound, uiProject } from "./ui.js";
import { eventSummary } from "./event-views.js";
import * as thirdParty from "../thirdparty/backend.js";

export const EVENTS_PER_PAGE = 20;

/** `GET …/-/error_tracking/:issue_id/events.json?cursor`: the error's events, newest first (not in GitLab). */
export const endpoint = defineEndpoint(
  {
    summary: "Events of an error (UI JSON)",
    access: "read",
    params: z.object({ ...uiPathParams, issue_id: issueIdParam }),
    query: z.object({ cursor: z.optional(z.string().check(z.maxLength(2000))) }),
  },
  async ({ c, principal, params, query }) => {
    const { project, tracker } = await uiProject(c, principal, params, READ_LEVEL);
    if (tracker) return thirdParty.errorEvents(tracker, params.issue_id, query.cursor || undefined);
    const error = await getError(project.id, params.issue_id);
    if (!error) throw errorNotFound();
    const page = await listErrorEvents(project.id, error.errorId, { cursor: query.cursor || undefined, limit: EVENTS_PER_PAGE });
    return { events: page.events.map((ev) => eventSummary(trackerEvent(error, ev))), pagination: thirdParty.gitlabPagination(page) };
  },
);
export const handler = lambda(endpoint);
