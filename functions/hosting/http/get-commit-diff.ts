import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { notFound } from "../../platform/http/errors.js";
import { bool, pageQuery } from "../../platform/http/params.js";
import { pageRequest, setPageHeaders } from "../../platform/http/pagination.js";
import { commitDiff } from "../domain/git/index.js";
import { readRepository } from "../domain/read-path.js";
import { commitParams } from "./commit-schemas.js";
import { readableProject } from "./repository-access.js";

/**
 * GitLab's "Get the diff of a commit": one entry per changed file, paginated with `X-Total`.
 * `unidiff` is accepted; the diffs are unified either way (GitLab's `unidiff=true` only adds the
 * `---`/`+++` lines GitLab's own UI leaves out).
 */
export const endpoint = defineEndpoint(
  { summary: "Diff of a commit", access: "public", params: commitParams, query: z.object({ ...pageQuery, unidiff: z.optional(bool()) }) },
  async ({ c, principal, params, query }) => {
    const project = await readableProject(principal, params.id);
    const page = pageRequest(query);
    const result = await readRepository("project", project.id, project, (loc) =>
      commitDiff(loc.storage, loc.relativePath, params.sha, { offset: page.offset, limit: page.perPage }),
    );
    if (!result) throw notFound("Commit");
    setPageHeaders(c, page, result.total > page.offset + page.perPage, result.total);
    return result.entries;
  },
);
export const handler = lambda(endpoint);
