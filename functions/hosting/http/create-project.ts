import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { bool, int } from "../../platform/http/params.js";
import { baseUrl } from "../../platform/http/urls.js";
import { paramError } from "../../platform/http/errors.js";
import { createProject, initializeWithReadme } from "../domain/projects.js";
import { projectDetailView } from "../domain/project-view.js";
import { targetNamespace } from "../domain/namespaces.js";
import { chosenFeatures, featureFields, legacyFeatureFlags, visibility } from "./schemas.js";
import { pathSegment, slugify } from "./paths.js";
import { configuredStorage } from "./storage-choice.js";

/**
 * `repository_storage` places the repository on that storage (administrators; GitLab ignores it from
 * anyone else). Without it the storage is the weighted pick of `repository_storages_weighted`.
 */
export const endpoint = defineEndpoint(
  {
    summary: "Create a project",
    access: "write",
    status: 201,
    body: z.object({
      name: z.optional(z.string().check(z.minLength(1), z.maxLength(255))),
      path: z.optional(pathSegment),
      namespace_id: z.optional(z.union([int(), z.string().check(z.maxLength(255))])),
      description: z.optional(z.string().check(z.maxLength(2000))),
      visibility: z.optional(visibility),
      initialize_with_readme: z.optional(bool()),
      default_branch: z.optional(z.string().check(z.regex(/^[A-Za-z0-9._\/-]{1,255}$/))),
      repository_storage: z.optional(z.string().check(z.maxLength(255))),
      request_access_enabled: z.optional(bool()),
      ...featureFields,
      ...legacyFeatureFlags,
    }),
  },
  async ({ c, principal, body }) => {
    if (!body.name && !body.path) throw paramError("name, path are missing, at least one parameter must be provided");
    const storage = principal.user.admin ? configuredStorage(body.repository_storage) : undefined;
    const ns = await targetNamespace(principal, body.namespace_id);
    const project = await createProject(principal, ns, {
      name: body.name ?? body.path!,
      path: body.path ?? slugify(body.name!),
      description: body.description,
      visibility: body.visibility,
      defaultBranch: body.default_branch,
      features: chosenFeatures(body),
      requestAccessEnabled: body.request_access_enabled,
      storage,
    });
    if (body.initialize_with_readme) await initializeWithReadme(principal, project);
    return projectDetailView(principal, project, baseUrl(c));
  },
);
export const handler = lambda(endpoint);
