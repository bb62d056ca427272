import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { forbidden } from "../../platform/http/errors.js";
import { idOrPath } from "../../platform/http/params.js";
import { baseUrl } from "../../platform/http/urls.js";
import { AccessLevel } from "../domain/access.js";
import { linkFork } from "../domain/fork-links.js";
import { visibleProject } from "../domain/projects.js";
import { projectDetailView, simpleProjectView } from "../domain/project-view.js";
import { codeReader } from "./repository-access.js";

/**
 * GitLab's `POST /projects/:id/fork/:forked_from_id`: marks an existing project as a fork of another.
 * The project's Owners (the page's prerequisite), who must be able to fork the source (read its
 * code); 201 with the project and its `forked_from_project`; a project already a fork is 409.
 */
export const endpoint = defineEndpoint(
  { summary: "Create a fork relationship between projects", access: "write", status: 201, params: z.object({ id: idOrPath(), forked_from_id: idOrPath() }) },
  async ({ c, principal, params }) => {
    const { project, level } = await visibleProject(principal, params.id);
    if (level < AccessLevel.owner) throw forbidden();
    const { project: source } = await codeReader(principal, params.forked_from_id);
    const linked = await linkFork(project, source);
    const base = baseUrl(c);
    return { ...(await projectDetailView(principal, linked, base)), forked_from_project: simpleProjectView(source, base) };
  },
);
export const handler = lambda(endpoint);
