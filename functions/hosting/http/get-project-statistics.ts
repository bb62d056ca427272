import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { forbidden } from "../../platform/http/errors.js";
import { AccessLevel } from "../domain/access.js";
import { fetchStatistics } from "../domain/fetch-statistics.js";
import { visibleProject } from "../domain/projects.js";
import { projectParams } from "./schemas.js";

/**
 * GitLab's "Get the statistics of the last 30 days": HTTP fetches and clones per day, newest first
 * (`fetch-statistics.ts`). Authenticated; Reporter+ (GitLab's `read_statistics`), 403 below it.
 */
export const endpoint = defineEndpoint({ summary: "Fetch statistics of the last 30 days", access: "read", params: projectParams }, async ({ principal, params }) => {
  const { project, level } = await visibleProject(principal, params.id);
  if (level < AccessLevel.reporter) throw forbidden();
  return fetchStatistics(project.id);
});
export const handler = lambda(endpoint);
