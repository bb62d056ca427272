import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { notFound } from "../../platform/http/errors.js";
import { pageQuery } from "../../platform/http/params.js";
import { pageRequest, setPageHeaders } from "../../platform/http/pagination.js";
import { refsContaining, type RefType } from "../domain/git/index.js";
import { readRepository } from "../domain/read-path.js";
import { commitParams } from "./commit-schemas.js";
import { readableProject } from "./repository-access.js";

const TYPES: Record<"branch" | "tag" | "all", RefType[]> = { branch: ["branch"], tag: ["tag"], all: ["branch", "tag"] };

/** GitLab's "Get references a commit is pushed to": branches, then tags, as `{type, name}`, paginated. */
export const endpoint = defineEndpoint(
  { summary: "Branches and tags containing a commit", access: "public", params: commitParams, query: z.object({ ...pageQuery, type: z.optional(z.enum(["branch", "tag", "all"])) }) },
  async ({ c, principal, params, query }) => {
    const project = await readableProject(principal, params.id);
    const page = pageRequest(query);
    const refs = await readRepository("project", project.id, project, (loc) => refsContaining(loc.storage, loc.relativePath, params.sha, TYPES[query.type ?? "all"]));
    if (!refs) throw notFound("Commit");
    setPageHeaders(c, page, refs.length > page.offset + page.perPage, refs.length);
    return refs.slice(page.offset, page.offset + page.perPage);
  },
);
export const handler = lambda(endpoint);
