import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { pageQuery } from "../../platform/http/params.js";
import { pageRequest, setPageHeaders } from "../../platform/http/pagination.js";
import { maintainedProject } from "../domain/access.js";
import { listClientKeys } from "../domain/client-keys.js";
import { projectParams } from "./params.js";
import { clientKeyEntity } from "./views.js";

/** Paginated, oldest first; DSNs without secrets. */
export const endpoint = defineEndpoint(
  { summary: "List error tracking client keys", access: "read", params: projectParams, query: z.object({ ...pageQuery }) },
  async ({ c, principal, params, query }) => {
    const project = await maintainedProject(principal, params.id);
    const page = pageRequest(query);
    const result = await listClientKeys(project.id, page.offset, page.perPage);
    setPageHeaders(c, page, result.hasMore, undefined, result.items.length);
    return result.items.map((k) => clientKeyEntity(c, k));
  },
);
export const handler = lambda(endpoint);
