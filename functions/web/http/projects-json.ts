import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { AccessLevel } from "../../hosting/domain/access.js";
import { monitoredProject } from "../../errortracking/domain/access.js";
import { connectProjects } from "../../errortracking/thirdparty/settings.js";
import { pathParams, projectPathOf } from "../ui/project-page.js";

/**
 * `GET …/-/error_tracking/projects.json?api_host&token` (GitLab `ListProjectsService`, B.8): the
 * tracker's projects for the Connect button. `admin_sentry` (Maintainer+) with Monitor enabled, else
 * 404; a token of only `*` uses the stored one; tracker failures are `{message}` (400 / 500).
 */
export const endpoint = defineEndpoint(
  {
    summary: "List a third-party tracker's projects (UI JSON)",
    access: "read",
    params: z.object(pathParams),
    query: z.object({ api_host: z.optional(z.string().check(z.maxLength(255))), token: z.optional(z.string().check(z.maxLength(255))) }),
  },
  async ({ principal, params, query }) => {
    const project = await monitoredProject(principal, projectPathOf(params), AccessLevel.maintainer);
    return connectProjects(project.id, query.api_host, query.token);
  },
);
export const handler = lambda(endpoint);
