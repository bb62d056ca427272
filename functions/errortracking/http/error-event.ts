import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { ApiError } from "../../platform/http/errors.js";
import { READ_LEVEL } from "../domain/access.js";
import { getError } from "../domain/errors.js";
import { getEvent } from "../domain/events.js";
import { trackerEvent } from "../sentry-api/views.js";
import { issueIdParam, uiPathParams } from "./params.js";
import { uiProject } from "./ui.js";
import { eventDetail } from "./event-views.js";
import * as thirdParty from "../thirdparty/backend.js";

const eventNotFound = () => new ApiError(404, { message: "404 Event Not Found" });

/** `GET …/-/error_tracking/:issue_id/events/:event_id/details.json`: one event of the error, in full (not in GitLab). */
export const endpoint = defineEndpoint(
  {
    summary: "One event of an error (UI JSON)",
    access: "read",
    params: z.object({ ...uiPathParams, issue_id: issueIdParam, event_id: z.string().check(z.regex(/^[0-9a-fA-F-]{32,36}$/, "is invalid")) }),
  },
  async ({ c, principal, params }) => {
    const { project, tracker } = await uiProject(c, principal, params, READ_LEVEL);
    const eventId = params.event_id.replace(/-/g, "").toLowerCase();
    if (tracker) return thirdParty.errorEvent(tracker, params.issue_id, eventId);
    const event = await getEvent(project.id, eventId);
    // An event of another error of the project is not this error's.
    if (!event || event.errorId !== params.issue_id) throw eventNotFound();
    const error = await getError(project.id, params.issue_id);
    if (!error) throw eventNotFound();
    return { event: eventDetail(trackerEvent(error, event)) };
  },
);
export const handler = lambda(endpoint);
