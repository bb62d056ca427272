import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { pageQuery } from "../../platform/http/params.js";
import { pageRequest, setPageHeaders } from "../../platform/http/pagination.js";
import { listTagPage } from "../domain/git/index.js";
import { readRepository } from "../domain/read-path.js";
import { protectedRules } from "../domain/protected-refs.js";
import { tagView } from "./ref-views.js";
import { readableProject } from "./repository-access.js";
import { projectParams } from "./schemas.js";

/** GitLab's "List project repository tags": `order_by` (`updated` by default), `sort` (`desc`), `search`, paginated with totals. */
export const endpoint = defineEndpoint(
  {
    summary: "List repository tags",
    access: "public",
    params: projectParams,
    query: z.object({
      ...pageQuery,
      order_by: z.optional(z.enum(["name", "updated", "version"])),
      sort: z.optional(z.enum(["asc", "desc"])),
      search: z.optional(z.string().check(z.maxLength(1024))),
    }),
  },
  async ({ c, principal, params, query }) => {
    const project = await readableProject(principal, params.id);
    const page = pageRequest(query);
    const { tags, total } = await readRepository("project", project.id, project, (loc) =>
      listTagPage(loc.storage, loc.relativePath, { search: query.search, orderBy: query.order_by, sort: query.sort, offset: page.offset, limit: page.perPage }),
    );
    setPageHeaders(c, page, total > page.offset + page.perPage, total);
    const rules = protectedRules(project);
    return tags.map((tag) => tagView(c, project, tag, rules));
  },
);
export const handler = lambda(endpoint);
