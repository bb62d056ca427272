import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { READ_LEVEL } from "../domain/access.js";
import { getError, latestEvent } from "../domain/errors.js";
import { stackTraceEntries } from "../domain/stacktrace.js";
import { issueIdParam, uiPathParams } from "./params.js";
import { errorNotFound, uiProject } from "./ui.js";
import { payloadExtras } from "../thirdparty/mapping.js";
import * as thirdParty from "../thirdparty/backend.js";

/** `GET …/-/error_tracking/:issue_id/stack_trace.json`: the latest event's frames (GitLab's builder). */
export const endpoint = defineEndpoint(
  { summary: "Stack trace of an error's latest event (UI JSON)", access: "read", params: z.object({ ...uiPathParams, issue_id: issueIdParam }) },
  async ({ c, principal, params }) => {
    const { project, tracker } = await uiProject(c, principal, params, READ_LEVEL);
    if (tracker) return thirdParty.stackTrace(tracker, params.issue_id);
    const [error, event] = await Promise.all([getError(project.id, params.issue_id), latestEvent(project.id, params.issue_id)]);
    if (!error) throw errorNotFound();
    return {
      error: {
        issue_id: String(error.errorId),
        date_received: event?.occurredAt ?? error.lastSeen,
        stack_trace_entries: event ? stackTraceEntries(event.payload) : [],
        // Not in GitLab's JSON: the latest event's environment, release and tags, for the detail page.
        ...payloadExtras(event?.payload ?? {}),
      },
    };
  },
);
export const handler = lambda(endpoint);
