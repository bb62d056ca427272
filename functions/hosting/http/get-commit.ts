import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { notFound } from "../../platform/http/errors.js";
import { bool } from "../../platform/http/params.js";
import { getCommitDetail } from "../domain/git/index.js";
import { readRepository } from "../domain/read-path.js";
import { commitParams } from "./commit-schemas.js";
import { commitView } from "./ref-views.js";
import { codeReader } from "./repository-access.js";

/**
 * GitLab's "Get a single commit": `sha` is a commit id (abbreviated or not), a branch or a tag; the
 * answer is GitLab's `CommitDetail`, with `stats` unless `stats=false`. There is no CI here, so
 * `status` and `last_pipeline` are always null. A caller who sees the project but may not read its
 * code (a Guest of a private one) gets GitLab's 403.
 */
export const endpoint = defineEndpoint(
  { summary: "A single commit", access: "public", params: commitParams, query: z.object({ stats: z.optional(bool()) }) },
  async ({ c, principal, params, query }) => {
    const { project } = await codeReader(principal, params.id, { denied: "forbidden" });
    const commit = await readRepository("project", project.id, project, (loc) => getCommitDetail(loc.storage, loc.relativePath, params.sha, query.stats ?? true));
    if (!commit) throw notFound("Commit");
    return { ...commitView(c, project, commit), status: null, project_id: project.id, last_pipeline: null };
  },
);
export const handler = lambda(endpoint);
