import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { bool, pageQuery } from "../../platform/http/params.js";
import { pageRequest, setPageHeaders } from "../../platform/http/pagination.js";
import { baseUrl } from "../../platform/http/urls.js";
import { forbidden } from "../../platform/http/errors.js";
import { listAllProjects, listVisibleProjects } from "../domain/projects.js";
import { projectView } from "../domain/project-view.js";

/**
 * `repository_storage` is an administrator filter (GitLab: "Available for administrators only");
 * it is a Query on the storage index, which is how an operator confirms a storage is empty.
 */
export const endpoint = defineEndpoint(
  {
    summary: "List projects",
    access: "public",
    query: z.object({ ...pageQuery, repository_storage: z.optional(z.string().check(z.maxLength(64))), membership: z.optional(bool()) }),
  },
  async ({ c, principal, query }) => {
    const page = pageRequest(query);
    const admin = principal?.user.admin ?? false;
    if (query.repository_storage !== undefined && !admin) throw forbidden();
    const result = admin && !query.membership ? await listAllProjects(page.offset, page.perPage, query.repository_storage) : await listVisibleProjects(principal, page.offset, page.perPage, { membership: query.membership });
    setPageHeaders(c, page, result.hasMore);
    return result.projects.map((p) => projectView(p, baseUrl(c), { admin }));
  },
);
export const handler = lambda(endpoint);
