import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { baseUrl } from "../../platform/http/urls.js";
import { visibleProject } from "../domain/projects.js";
import { projectView } from "../domain/project-view.js";
import { projectParams } from "./schemas.js";

/** By integer id or URL-encoded full path (`group%2Fproject`). */
export const endpoint = defineEndpoint({ summary: "One project", access: "public", params: projectParams }, async ({ c, principal, params }) => {
  const { project } = await visibleProject(principal, params.id);
  return projectView(project, baseUrl(c), { admin: principal?.user.admin ?? false });
});
export const handler = lambda(endpoint);
