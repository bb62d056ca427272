import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { bool } from "../../platform/http/params.js";
import { baseUrl } from "../../platform/http/urls.js";
import { commitActions } from "../domain/git/index.js";
import { withRepositoryWrite } from "../domain/write-path.js";
import { fullPathOf } from "../domain/projects.js";
import { projectParams } from "./schemas.js";
import { branchWriter } from "./protected-writes.js";
import { recordContribution } from "../domain/contributions.js";

const action = z.object({
  action: z.enum(["create", "update", "delete", "move", "chmod"]),
  file_path: z.string().check(z.minLength(1), z.maxLength(4096)),
  previous_path: z.optional(z.string().check(z.minLength(1), z.maxLength(4096))),
  content: z.optional(z.string()),
  encoding: z.optional(z.enum(["text", "base64"])),
  execute_filemode: z.optional(bool()),
  last_commit_id: z.optional(z.string().check(z.maxLength(64))),
});

/**
 * Developer+, and `branch` one the caller may push to (a protected branch: 403 `You are not allowed
 * to push into this branch`). Goes through the one repository write path: refused with 409 and
 * GitLab's read-only message while a storage move holds the repository.
 */
export const endpoint = defineEndpoint(
  {
    summary: "Create a commit with several file actions",
    access: "write",
    status: 201,
    params: projectParams,
    body: z.object({
      branch: z.string().check(z.minLength(1), z.maxLength(255)),
      commit_message: z.string().check(z.minLength(1), z.maxLength(100_000)),
      start_branch: z.optional(z.string().check(z.minLength(1), z.maxLength(255))),
      actions: z.array(action).check(z.minLength(1), z.maxLength(1000)),
      author_email: z.optional(z.string().check(z.email())),
      author_name: z.optional(z.string().check(z.maxLength(255))),
      force: z.optional(bool()),
      stats: z.optional(bool()),
    }),
  },
  async ({ c, principal, params, body }) => {
    const project = await branchWriter(principal, params.id, body.branch);
    const commit = await withRepositoryWrite("project", project.id, (location) =>
      commitActions(location!.storage, location!.relativePath, {
        branch: body.branch,
        startBranch: body.start_branch,
        message: body.commit_message,
        author: { name: body.author_name ?? principal.user.name, email: body.author_email ?? principal.user.email },
        actions: body.actions,
      }),
    );
    await recordContribution(principal.user.id, project.id);
    // `status` is the commit's pipeline status in GitLab: there is no CI here, so never one.
    return { ...commit, status: null, web_url: `${baseUrl(c)}/${fullPathOf(project)}/-/commit/${commit.id}` };
  },
);
export const handler = lambda(endpoint);
