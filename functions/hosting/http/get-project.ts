import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { baseUrl } from "../../platform/http/urls.js";
import { visibleProject } from "../domain/projects.js";
import { projectDetailView, simpleProjectView } from "../domain/project-view.js";
import { visibleForkSource } from "../domain/forks.js";
import { bool } from "../../platform/http/params.js";
import { projectStatistics } from "../domain/project-statistics.js";
import { AccessLevel } from "../domain/access.js";
import { projectParams } from "./schemas.js";

/** By integer id or URL-encoded full path (`group%2Fproject`). */
export const endpoint = defineEndpoint(
  { summary: "One project", access: "public", params: projectParams, query: z.object({ statistics: z.optional(bool()) }) },
  async ({ c, principal, params, query }) => {
    const { project, level } = await visibleProject(principal, params.id);
    const base = baseUrl(c);
    const admin = principal?.user.admin ?? false;
    const view = await projectDetailView(principal, project, base);
    // GitLab shows a fork's source only to those who may read it, and statistics to Reporters and up.
    const [source, statistics] = await Promise.all([visibleForkSource(principal, project), query.statistics && (admin || level >= AccessLevel.reporter) ? projectStatistics(project) : undefined]);
    return { ...view, ...(source ? { forked_from_project: simpleProjectView(source, base) } : {}), ...(statistics ? { statistics } : {}) };
  },
);
export const handler = lambda(endpoint);
