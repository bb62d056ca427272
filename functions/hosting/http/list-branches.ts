import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { pageQuery } from "../../platform/http/params.js";
import { pageRequest, setPageHeaders } from "../../platform/http/pagination.js";
import { listBranchPage } from "../domain/git/index.js";
import { readRepository } from "../domain/read-path.js";
import { protectedRules } from "../domain/protected-refs.js";
import { branchView } from "./ref-views.js";
import { codeReader } from "./repository-access.js";
import { projectParams } from "./schemas.js";

/** GitLab's "List repository branches": by name (or `sort`), `search` with `^`/`$`/`*`, paginated with totals. */
export const endpoint = defineEndpoint(
  {
    summary: "List repository branches",
    access: "public",
    params: projectParams,
    query: z.object({ ...pageQuery, search: z.optional(z.string().check(z.maxLength(1024))), sort: z.optional(z.enum(["name_asc", "updated_asc", "updated_desc"])) }),
  },
  async ({ c, principal, params, query }) => {
    const { project, level } = await codeReader(principal, params.id);
    const page = pageRequest(query);
    const { branches, total } = await readRepository("project", project.id, project, (loc) =>
      listBranchPage(loc.storage, loc.relativePath, { defaultBranch: project.defaultBranch, search: query.search, sort: query.sort, offset: page.offset, limit: page.perPage }),
    );
    setPageHeaders(c, page, total > page.offset + page.perPage, total);
    const [actor, rules] = [{ level, admin: !!principal?.user.admin }, protectedRules(project)];
    return branches.map((branch) => branchView(c, project, actor, branch, rules));
  },
);
export const handler = lambda(endpoint);
