import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { notFound } from "../../platform/http/errors.js";
import { bool } from "../../platform/http/params.js";
import { findRule, protectedBranchView, setForcePush } from "../domain/protected-ref-admin.js";
import { maintainedProject, protectedRefParams } from "./protected-ref-params.js";

/**
 * GitLab's "Update a protected branch" (Maintainer+): CE changes `allow_force_push` (the access
 * level arrays are Premium's); `404 Not found` for a name that is not protected.
 */
export const endpoint = defineEndpoint(
  {
    summary: "Update a protected branch",
    access: "write",
    params: protectedRefParams,
    // Premium's `code_owner_approval_required` is taken and has no effect, as GitLab CE ignores it.
    body: z.object({ allow_force_push: z.optional(bool()), code_owner_approval_required: z.optional(bool()) }),
  },
  async ({ principal, params, body }) => {
    const { project } = await maintainedProject(principal, params.id);
    const rule = body.allow_force_push === undefined ? findRule(project, "branch", params.name) : await setForcePush(project, params.name, body.allow_force_push);
    if (!rule) throw notFound();
    return protectedBranchView(rule);
  },
);
export const handler = lambda(endpoint);
