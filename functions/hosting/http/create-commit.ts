import * as z from "zod";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { bool } from "../../platform/http/params.js";
import { baseUrl } from "../../platform/http/urls.js";
import { commitActions } from "../domain/git/index.js";
import { withRepositoryWrite } from "../domain/write-path.js";
import { fullPathOf } from "../domain/projects.js";
import { projectParams } from "./schemas.js";
import { writableProject } from "./repository-access.js";

const action = z
  .object({
    action: z.enum(["create", "update", "delete", "move", "chmod"]),
    file_path: z.string().min(1).max(4096),
    previous_path: z.string().min(1).max(4096).optional(),
    content: z.string().optional(),
    encoding: z.enum(["text", "base64"]).optional(),
    execute_filemode: bool().optional(),
    last_commit_id: z.string().max(64).optional(),
  })
  .strict();

/**
 * Developer+. Goes through the one repository write path: refused with 409 and GitLab's read-only
 * message while a storage move holds the repository.
 */
export const endpoint = defineEndpoint(
  {
    summary: "Create a commit with several file actions",
    access: "write",
    status: 201,
    params: projectParams,
    body: z.object({
      branch: z.string().min(1).max(255),
      commit_message: z.string().min(1).max(100_000),
      start_branch: z.string().min(1).max(255).optional(),
      actions: z.array(action).min(1).max(1000),
      author_email: z.string().email().optional(),
      author_name: z.string().max(255).optional(),
      force: bool().optional(),
      stats: bool().optional(),
    }),
  },
  async ({ c, principal, params, body }) => {
    const project = await writableProject(principal, params.id);
    const commit = await withRepositoryWrite("project", project.id, (location) =>
      commitActions(location!.storage, location!.relativePath, {
        branch: body.branch,
        startBranch: body.start_branch,
        message: body.commit_message,
        author: { name: body.author_name ?? principal.user.name, email: body.author_email ?? principal.user.email },
        actions: body.actions,
      }),
    );
    // `status` is the commit's pipeline status in GitLab: there is no CI here, so never one.
    return { ...commit, status: null, web_url: `${baseUrl(c)}/${fullPathOf(project)}/-/commit/${commit.id}` };
  },
);
export const handler = lambda(endpoint);
