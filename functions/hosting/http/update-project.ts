import * as z from "zod";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { baseUrl } from "../../platform/http/urls.js";
import { forbidden } from "../../platform/http/errors.js";
import { AccessLevel } from "../domain/access.js";
import { updateProject, visibleProject } from "../domain/projects.js";
import { projectView } from "../domain/project-view.js";
import { chosenFeatures, featureFields, projectParams, visibility } from "./schemas.js";

/** Maintainer+. Renaming the path is not offered (it would move the repository's URL). */
export const endpoint = defineEndpoint(
  {
    summary: "Update a project",
    access: "write",
    params: projectParams,
    body: z.object({
      name: z.string().min(1).max(255).optional(),
      description: z.string().max(2000).optional(),
      visibility: visibility.optional(),
      default_branch: z.string().regex(/^[A-Za-z0-9._\/-]{1,255}$/).optional(),
      ...featureFields,
    }),
  },
  async ({ c, principal, params, body }) => {
    const { project, level } = await visibleProject(principal, params.id);
    if (level < AccessLevel.maintainer) throw forbidden();
    const updated = await updateProject(project, {
      name: body.name,
      description: body.description,
      visibility: body.visibility,
      defaultBranch: body.default_branch,
      features: chosenFeatures(body),
    });
    return projectView(updated, baseUrl(c), { admin: principal.user.admin });
  },
);
export const handler = lambda(endpoint);
