import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { bool } from "../../platform/http/params.js";
import { baseUrl } from "../../platform/http/urls.js";
import { forbidden } from "../../platform/http/errors.js";
import { scheduleContainerMoveTo } from "../../moves/domain/schedule.js";
import { AccessLevel } from "../domain/access.js";
import { updateProject, visibleProject } from "../domain/projects.js";
import { projectView } from "../domain/project-view.js";
import { chosenFeatures, featureFields, legacyFeatureFlags, projectParams, visibility } from "./schemas.js";
import { configuredStorage } from "./storage-choice.js";

/**
 * Maintainer+. Renaming the path is not offered (it would move the repository's URL). An
 * administrator's `repository_storage` other than the current one schedules a repository storage
 * move there, as GitLab does; the answer shows the project as it is until that move finishes.
 */
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
      repository_storage: z.optional(z.string().check(z.maxLength(255))),
      request_access_enabled: z.optional(bool()),
      ...featureFields,
      ...legacyFeatureFlags,
    }),
  },
  async ({ c, principal, params, body }) => {
    const { project, level } = await visibleProject(principal, params.id);
    if (level < AccessLevel.maintainer) throw forbidden();
    // GitLab ignores the storage from anyone but an administrator.
    const storage = principal.user.admin ? configuredStorage(body.repository_storage) : undefined;
    const updated = await updateProject(project, {
      name: body.name,
      description: body.description,
      visibility: body.visibility,
      defaultBranch: body.default_branch,
      features: chosenFeatures(body),
      requestAccessEnabled: body.request_access_enabled,
    });
    if (storage !== undefined && storage !== project.storage) await scheduleContainerMoveTo("project", updated, storage);
    // Without `shared_with_groups` (GET has it): reading the shared groups is code this function,
    // which also schedules storage moves, has no room left for in its bundle.
    return projectView(updated, baseUrl(c), { admin: principal.user.admin });
  },
);
export const handler = lambda(endpoint);
