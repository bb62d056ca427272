import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { int } from "../../platform/http/params.js";
import { protect, protectedTagView } from "../domain/protected-ref-admin.js";
import { maintainedProject, refAccessLevel } from "./protected-ref-params.js";
import { projectParams } from "./schemas.js";

/**
 * GitLab's "Protect repository tags" (Maintainer+): a tag name or a wildcard; `create_access_level`
 * defaults to Maintainers. A name protected already answers 422 `Name has already been taken`.
 */
export const endpoint = defineEndpoint(
  {
    summary: "Protect a repository tag",
    access: "write",
    status: 201,
    params: projectParams,
    body: z.object({
      name: z.string().check(z.minLength(1), z.maxLength(255)),
      create_access_level: z.optional(refAccessLevel()),
      // Premium's per-user, group and deploy key grants: taken and without effect, as GitLab CE ignores them.
      allowed_to_create: z.optional(
        z.array(z.object({ user_id: z.optional(int()), group_id: z.optional(int()), deploy_key_id: z.optional(int()), access_level: z.optional(refAccessLevel()) })).check(z.maxLength(100)),
      ),
    }),
  },
  async ({ principal, params, body }) => {
    const { project } = await maintainedProject(principal, params.id);
    return protectedTagView(await protect(project, { kind: "tag", name: body.name, create: body.create_access_level ?? 40 }));
  },
);
export const handler = lambda(endpoint);
