import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { ApiError, notFound, paramError } from "../../platform/http/errors.js";
import { positiveInt } from "../../platform/http/params.js";
import { blameAtRef } from "../domain/git/index.js";
import { readRepository } from "../domain/read-path.js";
import { readableProject } from "./repository-access.js";
import { fileMetadata, fileParams, setGitlabHeaders, validFilePath } from "./repository-file.js";

/**
 * GitLab's "Get file blame from repository": ranges of lines with the commit that introduced them,
 * the file's metadata as `X-Gitlab-*` headers (all that `HEAD` answers). `range[start]` and
 * `range[end]` (1-based, inclusive) blame part of the file.
 */
export const endpoint = defineEndpoint(
  {
    summary: "File blame",
    access: "public",
    params: fileParams,
    query: z.object({
      ref: z.string().check(z.minLength(1), z.maxLength(255)),
      "range[start]": z.optional(positiveInt()),
      "range[end]": z.optional(positiveInt()),
    }),
  },
  async ({ c, principal, params, query }) => {
    const filePath = validFilePath(params.file_path);
    const start = query["range[start]"];
    const end = query["range[end]"];
    // Grape's `requires` inside the optional `range` hash: one bound needs the other.
    if ((start === undefined) !== (end === undefined)) throw paramError(start === undefined ? "range[start] is missing" : "range[end] is missing");
    if (start !== undefined && end !== undefined && start > end) throw new ApiError(400, { message: "range[start] must be less than or equal to range[end]" });
    const project = await readableProject(principal, params.id);
    const range = start !== undefined && end !== undefined ? { start, end } : undefined;
    const blame = await readRepository("project", project.id, project, (loc) => blameAtRef(loc.storage, loc.relativePath, { ref: query.ref, filePath, range }));
    if ("missing" in blame) throw notFound(blame.missing === "commit" ? "Commit" : "File");
    setGitlabHeaders(c, fileMetadata(filePath, query.ref, blame.file));
    return blame.ranges.map(({ commit, lines }) => ({
      commit: {
        id: commit.id,
        parent_ids: commit.parent_ids,
        message: commit.message,
        authored_date: commit.authored_date,
        author_name: commit.author_name,
        author_email: commit.author_email,
        committed_date: commit.committed_date,
        committer_name: commit.committer_name,
        committer_email: commit.committer_email,
      },
      lines,
    }));
  },
);
export const handler = lambda(endpoint);
