import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { forbidden, notFound } from "../../platform/http/errors.js";
import { pageQuery } from "../../platform/http/params.js";
import { pageRequest, setPageHeaders } from "../../platform/http/pagination.js";
import { getCommit } from "../domain/git/index.js";
import { AccessLevel } from "../domain/access.js";
import { readRepository } from "../domain/read-path.js";
import { commitParams } from "./commit-schemas.js";
import { codeReader } from "./repository-access.js";

/**
 * GitLab's "List merge requests associated with a commit". This service has no merge requests, so
 * the list is always empty — after GitLab's checks: the caller may read the project's merge
 * requests (403 otherwise) and the commit exists (404 `Commit Not Found`).
 */
export const endpoint = defineEndpoint(
  { summary: "Merge requests of a commit (always none)", access: "public", params: commitParams, query: z.object({ ...pageQuery }) },
  async ({ c, principal, params, query }) => {
    const { project, level } = await codeReader(principal, params.id);
    const feature = project.features.merge_requests_access_level;
    if (feature === "disabled" || (feature === "private" && level < AccessLevel.reporter)) throw forbidden();
    const commit = await readRepository("project", project.id, project, (loc) => getCommit(loc.storage, loc.relativePath, params.sha));
    if (!commit) throw notFound("Commit");
    setPageHeaders(c, pageRequest(query), false, 0);
    return [];
  },
);
export const handler = lambda(endpoint);
