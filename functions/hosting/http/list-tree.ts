import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { bool, pageQuery } from "../../platform/http/params.js";
import { pageRequest, setPageHeaders } from "../../platform/http/pagination.js";
import { notFound } from "../../platform/http/errors.js";
import { listTree } from "../domain/git/index.js";
import { readRepository } from "../domain/read-path.js";
import { projectParams } from "./schemas.js";
import { readableProject } from "./repository-access.js";

export const endpoint = defineEndpoint(
  {
    summary: "List a repository tree",
    access: "read",
    params: projectParams,
    query: z.object({ ...pageQuery, path: z.optional(z.string().check(z.maxLength(4096))), ref: z.optional(z.string().check(z.maxLength(255))), recursive: z.optional(bool()) }),
  },
  async ({ c, principal, params, query }) => {
    const project = await readableProject(principal, params.id);
    const items = await readRepository("project", project.id, project, (loc) =>
      listTree(loc.storage, loc.relativePath, { ref: query.ref, path: query.path, recursive: query.recursive }),
    );
    if (!items) throw notFound("Tree");
    const page = pageRequest(query);
    setPageHeaders(c, page, items.length > page.offset + page.perPage, items.length);
    return items.slice(page.offset, page.offset + page.perPage);
  },
);
export const handler = lambda(endpoint);
