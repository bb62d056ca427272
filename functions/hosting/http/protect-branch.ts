import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { bool, int } from "../../platform/http/params.js";
import { protect, protectedBranchView } from "../domain/protected-ref-admin.js";
import { maintainedProject, refAccessLevel } from "./protected-ref-params.js";
import { projectParams } from "./schemas.js";

/**
 * GitLab's "Protect repository branches" (Maintainer+): a branch name or a wildcard (`*-stable`);
 * push, merge and unprotect levels default to Maintainers, force pushes to not allowed. 409 when
 * the name is protected already. The rule holds from the next ref update on (`protected-refs.ts`).
 */
export const endpoint = defineEndpoint(
  {
    summary: "Protect a repository branch",
    access: "write",
    status: 201,
    params: projectParams,
    body: z.object({
      name: z.string().check(z.minLength(1), z.maxLength(255)),
      push_access_level: z.optional(refAccessLevel()),
      merge_access_level: z.optional(refAccessLevel()),
      // Premium's setting, accepted here: who may unprotect (no "No one").
      unprotect_access_level: z.optional(z.pipe(int(), z.literal([30, 40, 60]))),
      allow_force_push: z.optional(bool()),
      // Premium's; taken and without effect, as GitLab CE ignores it.
      code_owner_approval_required: z.optional(bool()),
    }),
  },
  async ({ principal, params, body }) => {
    const { project } = await maintainedProject(principal, params.id);
    const rule = await protect(project, {
      kind: "branch",
      name: body.name,
      push: body.push_access_level ?? 40,
      merge: body.merge_access_level ?? 40,
      unprotect: body.unprotect_access_level ?? 40,
      force: body.allow_force_push ?? false,
    });
    return protectedBranchView(rule);
  },
);
export const handler = lambda(endpoint);
