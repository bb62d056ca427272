import * as z from "zod/mini";
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
      name: z.optional(z.string().check(z.minLength(1), z.maxLength(255))),
      description: z.optional(z.string().check(z.maxLength(2000))),
      visibility: z.optional(visibility),
      default_branch: z.optional(z.string().check(z.regex(/^[A-Za-z0-9._\/-]{1,255}$/))),
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
