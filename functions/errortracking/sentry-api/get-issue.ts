import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { dailyFrequency, hourlyFrequency } from "../domain/frequency.js";
import { findIssue, issueIdParams, trackerUser } from "./access.js";
import { trackerIssue } from "./views.js";

/** `GET /api/0/issues/{id}/`. */
export const endpoint = defineEndpoint({ summary: "Tracker API: one issue", access: "public", params: issueIdParams }, async ({ c, principal, params }) => {
  const { project, error } = await findIssue(trackerUser(principal, false), Number(params.issue_id));
  const [hourly, daily] = await Promise.all([hourlyFrequency(project.id, error.errorId), dailyFrequency(project.id, error.errorId)]);
  return trackerIssue(c, project, error, hourly, daily);
});
export const handler = lambda(endpoint);
