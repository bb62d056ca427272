import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { bool, pageQuery } from "../../platform/http/params.js";
import { pageRequest, setPageHeaders } from "../../platform/http/pagination.js";
import { baseUrl } from "../../platform/http/urls.js";
import { listCommits } from "../domain/git/index.js";
import { readRepository } from "../domain/read-path.js";
import { fullPathOf } from "../domain/projects.js";
import { projectParams } from "./schemas.js";
import { readableProject } from "./repository-access.js";

export const endpoint = defineEndpoint(
  { summary: "List commits", access: "read", params: projectParams, query: z.object({ ...pageQuery, ref_name: z.optional(z.string().check(z.maxLength(255))), all: z.optional(bool()) }) },
  async ({ c, principal, params, query }) => {
    const project = await readableProject(principal, params.id);
    const page = pageRequest(query);
    const result = await readRepository("project", project.id, project, (loc) =>
      listCommits(loc.storage, loc.relativePath, { ref: query.ref_name, all: query.all, offset: page.offset, limit: page.perPage }),
    );
    setPageHeaders(c, page, result.hasMore, undefined, result.commits.length);
    return result.commits.map((commit) => ({ ...commit, web_url: `${baseUrl(c)}/${fullPathOf(project)}/-/commit/${commit.id}` }));
  },
);
export const handler = lambda(endpoint);
