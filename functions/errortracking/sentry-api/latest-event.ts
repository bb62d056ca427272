import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { latestEvent } from "../domain/errors.js";
import { findIssue, issueIdParams, notFound, trackerUser } from "./access.js";
import { trackerEvent } from "./views.js";

/** `GET /api/0/issues/{id}/events/latest/`: the event that occurred last, frames in Sentry's shape. */
export const endpoint = defineEndpoint({ summary: "Tracker API: latest event of an issue", access: "public", params: issueIdParams }, async ({ principal, params }) => {
  const { project, error } = await findIssue(trackerUser(principal, false), Number(params.issue_id));
  const event = await latestEvent(project.id, error.errorId);
  if (!event) throw notFound();
  return trackerEvent(error, event);
});
export const handler = lambda(endpoint);
