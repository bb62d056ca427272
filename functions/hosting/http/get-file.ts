import { createHash } from "node:crypto";
import * as z from "zod/mini";
import type { Context } from "hono";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { notFound } from "../../platform/http/errors.js";
import { fileAtRef } from "../domain/git/index.js";
import { readRepository } from "../domain/read-path.js";
import { readableProject } from "./repository-access.js";
import { fileParams, validFilePath } from "./repository-file.js";

/**
 * GitLab's "Get file from repository": metadata and base64 content, the same metadata as
 * `X-Gitlab-*` headers. The route table mounts it for `HEAD` too, which answers the headers alone.
 * `ref=HEAD` is the default branch.
 */
export const endpoint = defineEndpoint(
  {
    summary: "File metadata and content",
    access: "public",
    params: fileParams,
    query: z.object({ ref: z.string().check(z.minLength(1), z.maxLength(255)) }),
  },
  async ({ c, principal, params, query }) => {
    const filePath = validFilePath(params.file_path);
    const project = await readableProject(principal, params.id);
    const file = await readRepository("project", project.id, project, (loc) => fileAtRef(loc.storage, loc.relativePath, { ref: query.ref, filePath }));
    if ("missing" in file) throw notFound(file.missing === "commit" ? "Commit" : "File");
    const meta = {
      file_name: filePath.slice(filePath.lastIndexOf("/") + 1),
      file_path: filePath,
      size: file.content.length,
      encoding: "base64",
      content_sha256: createHash("sha256").update(file.content).digest("hex"),
      ref: query.ref,
      blob_id: file.blobId,
      commit_id: file.commitId,
      last_commit_id: file.lastCommitId,
      execute_filemode: file.mode === "100755",
    };
    setGitlabHeaders(c, meta);
    // GitLab's own key order: `content` after `encoding`.
    const { file_name, file_path, size, encoding, ...rest } = meta;
    return { file_name, file_path, size, encoding, content: file.content.toString("base64"), ...rest };
  },
);
export const handler = lambda(endpoint);

/**
 * GitLab's `set_http_headers`: `file_name` → `X-Gitlab-File-Name`. A UTF-8 file name travels as its
 * UTF-8 bytes, as Rack sends it (HTTP header values are bytes; Node writes a string's code units as bytes).
 */
function setGitlabHeaders(c: Context, meta: Record<string, string | number | boolean>): void {
  for (const [key, value] of Object.entries(meta)) {
    const name = `X-Gitlab-${key.split("_").map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join("-")}`;
    c.header(name, Buffer.from(String(value), "utf8").toString("latin1"));
  }
}
