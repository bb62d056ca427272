/**
 * Shared by the repository files routes (`/projects/:id/repository/files/:file_path`): the path
 * parameters, GitLab's file path check, the write parameters and the one-file commit that every
 * write makes through the repository write path.
 */
import { createHash } from "node:crypto";
import type { Context } from "hono";
import * as z from "zod/mini";
import type { Principal } from "../../identity/domain/auth.js";
import { bool, idOrPath } from "../../platform/http/params.js";
import { paramError } from "../../platform/http/errors.js";
import { headerText } from "../../platform/http/header-names.js";
import { commitActions, type CommitAction, type FileAtRef } from "../domain/git/index.js";
import { withRepositoryWrite } from "../domain/write-path.js";
import { branchWriter } from "./protected-writes.js";
import { recordContribution } from "../domain/contributions.js";

/** `file_path` arrives URL-encoded (`lib%2Fclass%2Erb`); the router hands it over decoded. */
export const fileParams = z.object({ id: idOrPath(), file_path: z.string().check(z.minLength(1), z.maxLength(4096)) });

/**
 * GitLab's `file_path` validator: no directory traversal and no absolute path, answered with its
 * Grape message before anything is read.
 */
export function validFilePath(path: string): string {
  const parts = path.split(/[/\\]/);
  if (path.startsWith("/") || path.includes("\0") || parts.includes("..")) throw paramError("file_path should be a valid file path");
  return path;
}

/** GitLab's `blob_data`: what the file answers and its blame say about the file. */
export function fileMetadata(filePath: string, ref: string, file: FileAtRef) {
  return {
    file_name: filePath.slice(filePath.lastIndexOf("/") + 1),
    file_path: filePath,
    size: file.content.length,
    encoding: "base64",
    content_sha256: createHash("sha256").update(file.content).digest("hex"),
    ref,
    blob_id: file.blobId,
    commit_id: file.commitId,
    last_commit_id: file.lastCommitId,
    execute_filemode: file.mode === "100755",
  };
}

/**
 * GitLab's `set_http_headers`: `file_name` → `X-Gitlab-File-Name`. A name a header cannot carry as
 * it is (a newline, an emoji) is percent-encoded (`headerText`).
 */
export function setGitlabHeaders(c: Context, meta: Record<string, string | number | boolean>): void {
  for (const [key, value] of Object.entries(meta)) {
    const name = `X-Gitlab-${key.split("_").map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join("-")}`;
    c.header(name, headerText(String(value)));
  }
}

const branchName = () => z.string().check(z.minLength(1), z.maxLength(255));

/** `simple_file_params` of GitLab's API (what a delete takes). */
const simpleFileParams = {
  branch: branchName(),
  commit_message: z.string().check(z.minLength(1), z.maxLength(100_000)),
  start_branch: z.optional(branchName()),
  author_email: z.optional(z.email()),
  author_name: z.optional(z.string().check(z.maxLength(255))),
  last_commit_id: z.optional(z.string().check(z.maxLength(64))),
  // Clients repeat the path in the body (python-gitlab's update does); the URL's is the one used.
  file_path: z.optional(z.string().check(z.maxLength(4096))),
};

export const deleteFileBody = z.object(simpleFileParams);

/** `extended_file_params`: create and update also carry the content. */
export const writeFileBody = z.object({
  ...simpleFileParams,
  content: z.string(),
  encoding: z.optional(z.enum(["text", "base64"])),
  execute_filemode: z.optional(bool()),
});

type DeleteFileBody = z.infer<typeof deleteFileBody>;
type WriteFileBody = z.infer<typeof writeFileBody>;

/**
 * One commit that creates, updates or deletes one file, through the one repository write path
 * (lease, fencing, 409 with GitLab's read-only message during a move), to a branch the caller may
 * push to (`branchWriter`). GitLab's single-file API says "file changed" with a sentence of its own
 * per operation.
 */
export async function commitOneFile(
  principal: Principal,
  params: { id: string; file_path: string },
  body: DeleteFileBody | WriteFileBody,
  action: "create" | "update" | "delete",
): Promise<{ file_path: string; branch: string }> {
  const filePath = validFilePath(params.file_path);
  const project = await branchWriter(principal, params.id, body.branch);
  const written = "content" in body ? body : undefined;
  const actions: CommitAction[] = [
    {
      action,
      file_path: filePath,
      content: written?.content,
      encoding: written?.encoding,
      execute_filemode: written?.execute_filemode,
      last_commit_id: action === "create" ? undefined : body.last_commit_id,
    },
  ];
  // An update keeps the file's mode unless the caller sets it, as GitLab's does.
  if (action === "update" && written?.execute_filemode !== undefined) {
    actions.push({ action: "chmod", file_path: filePath, execute_filemode: written.execute_filemode });
  }
  await withRepositoryWrite("project", project.id, (location) =>
    commitActions(location!.storage, location!.relativePath, {
      branch: body.branch,
      startBranch: body.start_branch,
      message: body.commit_message,
      author: { name: body.author_name ?? principal.user.name, email: body.author_email ?? principal.user.email },
      actions,
      fileChangedMessage: () =>
        action === "delete"
          ? "You are attempting to delete a file that has been previously updated."
          : "You are attempting to update a file that has changed since you started editing it.",
    }),
  );
  await recordContribution(principal.user.id, project.id);
  return { file_path: filePath, branch: body.branch };
}
