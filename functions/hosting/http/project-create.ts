/** What `POST /projects` and `POST /projects/user/:user_id` share: the body's fields and the creation. */
import * as z from "zod/mini";
import { bool, int } from "../../platform/http/params.js";
import type { Principal } from "../../identity/domain/auth.js";
import { createProject, initializeWithReadme } from "../domain/projects.js";
import type { NamespaceTarget } from "../domain/namespaces.js";
import { chosenFeatures, featureFields, legacyFeatureFlags, visibility } from "./schemas.js";
import { pathSegment, slugify } from "./paths.js";

export const projectCreateFields = {
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
};

const body = z.object(projectCreateFields);

/** Creates the project `owner` asked for (the body has a name or a path), with its README if asked. */
export async function createFromBody(owner: Principal, target: NamespaceTarget, b: z.output<typeof body>, storage: string | undefined) {
  const project = await createProject(owner, target.namespace, {
    name: b.name ?? b.path!,
    path: b.path ?? slugify(b.name!),
    description: b.description,
    visibility: b.visibility,
    defaultBranch: b.default_branch,
    features: chosenFeatures(b),
    requestAccessEnabled: b.request_access_enabled,
    storage,
    group: target.group,
  });
  if (b.initialize_with_readme) await initializeWithReadme(owner, project);
  return project;
}
