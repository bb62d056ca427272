import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { baseUrl } from "../../platform/http/urls.js";
import { visibleProject } from "../domain/projects.js";
import { projectView, simpleProjectView } from "../domain/project-view.js";
import { visibleForkSource } from "../domain/forks.js";
import { projectParams } from "./schemas.js";

/** By integer id or URL-encoded full path (`group%2Fproject`). */
export const endpoint = defineEndpoint({ summary: "One project", access: "public", params: projectParams }, async ({ c, principal, params }) => {
  const { project } = await visibleProject(principal, params.id);
  const base = baseUrl(c);
  const view = projectView(project, base, { admin: principal?.user.admin ?? false });
  // GitLab shows a fork's source only to those who may read it.
  const source = await visibleForkSource(principal, project);
  return source ? { ...view, forked_from_project: simpleProjectView(source, base) } : view;
});
export const handler = lambda(endpoint);
