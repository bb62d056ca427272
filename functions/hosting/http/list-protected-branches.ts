import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { pageQuery } from "../../platform/http/params.js";
import { pageRequest, slicePage } from "../../platform/http/pagination.js";
import { listRules, protectedBranchView } from "../domain/protected-ref-admin.js";
import { maintainedProject } from "./protected-ref-params.js";
import { projectParams } from "./schemas.js";

/** GitLab's "List protected branches" (Maintainer+): as defined, a wildcard by its own name; `search` by part of the name. */
export const endpoint = defineEndpoint(
  {
    summary: "List protected branches",
    access: "read",
    params: projectParams,
    query: z.object({ ...pageQuery, search: z.optional(z.string().check(z.maxLength(255))) }),
  },
  async ({ c, principal, params, query }) => {
    const { project } = await maintainedProject(principal, params.id);
    return slicePage(c, pageRequest(query), listRules(project, "branch", query.search)).map(protectedBranchView);
  },
);
export const handler = lambda(endpoint);
