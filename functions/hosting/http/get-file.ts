import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { notFound } from "../../platform/http/errors.js";
import { fileAtRef } from "../domain/git/index.js";
import { readRepository } from "../domain/read-path.js";
import { readableProject } from "./repository-access.js";
import { fileMetadata, fileParams, setGitlabHeaders, validFilePath } from "./repository-file.js";

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
    const meta = fileMetadata(filePath, query.ref, file);
    setGitlabHeaders(c, meta);
    // GitLab's own key order: `content` after `encoding`.
    const { file_name, file_path, size, encoding, ...rest } = meta;
    return { file_name, file_path, size, encoding, content: file.content.toString("base64"), ...rest };
  },
);
export const handler = lambda(endpoint);
