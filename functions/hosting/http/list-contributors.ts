import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { notFound } from "../../platform/http/errors.js";
import { pageQuery } from "../../platform/http/params.js";
import { pageRequest, setPageHeaders } from "../../platform/http/pagination.js";
import { contributors, type Contributor } from "../domain/git/index.js";
import { readRepository } from "../domain/read-path.js";
import { projectParams } from "./schemas.js";
import { codeReader } from "./repository-access.js";

/**
 * GitLab's "Contributors": one entry per author e-mail of the ref's newest 2,000 commits (default
 * branch without `ref`), merge commits left out. `order_by` is `name`, `email` or `commits` (the
 * number of commits, GitLab's default), `sort` `asc` (default) or `desc`; equal entries keep the
 * order of each author's newest commit. A ref naming no commit answers GitLab's `404 Not found`.
 */
export const endpoint = defineEndpoint(
  {
    summary: "Repository contributors",
    access: "public",
    params: projectParams,
    query: z.object({
      ...pageQuery,
      ref: z.optional(z.string().check(z.minLength(1), z.maxLength(1024))),
      order_by: z.optional(z.enum(["name", "email", "commits"])),
      sort: z.optional(z.enum(["asc", "desc"])),
    }),
  },
  async ({ c, principal, params, query }) => {
    const { project } = await codeReader(principal, params.id, { denied: "forbidden" });
    const found = await readRepository("project", project.id, project, (loc) => contributors(loc.storage, loc.relativePath, query.ref));
    if (!found) throw notFound();
    const key = query.order_by ?? "commits";
    const sign = query.sort === "desc" ? -1 : 1;
    const compare = (a: Contributor, b: Contributor) => (a[key] < b[key] ? -1 : a[key] > b[key] ? 1 : 0);
    const sorted = [...found].sort((a, b) => sign * compare(a, b));
    const page = pageRequest(query);
    setPageHeaders(c, page, sorted.length > page.offset + page.perPage, sorted.length);
    return sorted.slice(page.offset, page.offset + page.perPage);
  },
);
export const handler = lambda(endpoint);
