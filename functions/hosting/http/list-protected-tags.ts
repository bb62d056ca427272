import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { pageQuery } from "../../platform/http/params.js";
import { pageRequest, slicePage } from "../../platform/http/pagination.js";
import { listRules, protectedTagView } from "../domain/protected-ref-admin.js";
import { maintainedProject } from "./protected-ref-params.js";
import { projectParams } from "./schemas.js";

/** GitLab's "List protected tags" (Maintainer+), paginated. */
export const endpoint = defineEndpoint(
  { summary: "List protected tags", access: "read", params: projectParams, query: z.object(pageQuery) },
  async ({ c, principal, params, query }) => {
    const { project } = await maintainedProject(principal, params.id);
    return slicePage(c, pageRequest(query), listRules(project, "tag")).map(protectedTagView);
  },
);
export const handler = lambda(endpoint);
