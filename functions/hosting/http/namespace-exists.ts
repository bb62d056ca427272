import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { positiveInt } from "../../platform/http/params.js";
import { findGroup } from "../domain/groups.js";
import { namespaceExists } from "../domain/namespaces.js";

/**
 * GitLab's availability check for a new path, at the top level or inside `parent_id` (an unknown
 * parent holds nothing). Like GitLab's, it answers for any path, visible to the caller or not.
 */
export const endpoint = defineEndpoint(
  {
    summary: "Whether a namespace path is taken",
    access: "read",
    params: z.object({ id: z.string().check(z.minLength(1), z.maxLength(255)) }),
    query: z.object({ parent_id: z.optional(positiveInt()) }),
  },
  async ({ params, query }) => {
    if (query.parent_id === undefined) return namespaceExists(params.id, undefined);
    const parent = await findGroup(query.parent_id);
    return parent ? namespaceExists(params.id, parent) : { exists: false, suggests: [] };
  },
);
export const handler = lambda(endpoint);
