import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { notFound } from "../../platform/http/errors.js";
import { fileAtRef } from "../domain/git/index.js";
import { readRepository } from "../domain/read-path.js";
import { readableProject } from "./repository-access.js";
import { rawText } from "./raw-content.js";
import { fileMetadata, fileParams, setGitlabHeaders, validFilePath } from "./repository-file.js";

/**
 * GitLab's "Get raw file from repository": the file's bytes, with the same `X-Gitlab-*` metadata
 * headers as the file's JSON route. The route table mounts it for `HEAD` too, which answers the
 * headers alone. `ref` defaults to the default branch; one naming no commit is `404 Commit Not Found`.
 */
export const endpoint = defineEndpoint(
  {
    summary: "Raw file content",
    access: "read",
    params: fileParams,
    query: z.object({ ref: z.optional(z.string().check(z.minLength(1), z.maxLength(255))) }),
  },
  async ({ c, principal, params, query }) => {
    const filePath = validFilePath(params.file_path);
    const project = await readableProject(principal, params.id);
    const ref = query.ref ?? project.defaultBranch;
    const file = await readRepository("project", project.id, project, (loc) => fileAtRef(loc.storage, loc.relativePath, { ref, filePath }));
    if ("missing" in file) throw notFound(file.missing === "commit" ? "Commit" : "File");
    setGitlabHeaders(c, fileMetadata(filePath, ref, file));
    return rawText(c, file.content, filePath);
  },
);
export const handler = lambda(endpoint);
