import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { bool } from "../../platform/http/params.js";
import { cherryPickCommit } from "../domain/git/index.js";
import { commitParams } from "./commit-schemas.js";
import { applyCommitChange } from "./apply-commit-change.js";

/**
 * GitLab's "Cherry-pick a commit": the commit's change made again on `branch`, as a new commit that
 * keeps the original author; `message` replaces GitLab's default message. The same checks, write
 * path and refusals as a revert (`apply-commit-change.ts`).
 */
export const endpoint = defineEndpoint(
  {
    summary: "Cherry-pick a commit onto a branch",
    access: "write",
    status: 201,
    params: commitParams,
    body: z.object({
      branch: z.string().check(z.minLength(1), z.maxLength(255)),
      dry_run: z.optional(bool()),
      message: z.optional(z.string().check(z.minLength(1), z.maxLength(100_000))),
    }),
  },
  async ({ c, principal, params, body }) =>
    applyCommitChange(c, principal, params, body, (location, input) => cherryPickCommit(location.storage, location.relativePath, { ...input, message: body.message })),
);
export const handler = lambda(endpoint);
