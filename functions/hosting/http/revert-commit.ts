import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { bool } from "../../platform/http/params.js";
import { revertCommit } from "../domain/git/index.js";
import { commitParams } from "./commit-schemas.js";
import { applyCommitChange } from "./apply-commit-change.js";

/** GitLab's "Revert a commit": the commit's change undone on `branch` (checks and refusals: `apply-commit-change.ts`). */
export const endpoint = defineEndpoint(
  {
    summary: "Revert a commit on a branch",
    access: "write",
    status: 201,
    params: commitParams,
    body: z.object({
      branch: z.string().check(z.minLength(1), z.maxLength(255)),
      dry_run: z.optional(bool()),
    }),
  },
  async ({ c, principal, params, body }) => applyCommitChange(c, principal, params, body, (location, input) => revertCommit(location.storage, location.relativePath, input)),
);
export const handler = lambda(endpoint);
