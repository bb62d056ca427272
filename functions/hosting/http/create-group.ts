import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { positiveInt } from "../../platform/http/params.js";
import { baseUrl } from "../../platform/http/urls.js";
import { createGroup, groupView } from "../domain/groups.js";
import { visibility } from "./schemas.js";
import { pathSegment } from "./paths.js";
import { chosenGroupSettings, groupSettingFields, withBranchProtection } from "./group-settings.js";

/** Any user with `api` scope may create a group and becomes its Owner. */
export const endpoint = defineEndpoint(
  {
    summary: "Create a group",
    access: "write",
    status: 201,
    body: z.object({
      name: z.string().check(z.minLength(1), z.maxLength(255)),
      path: pathSegment,
      description: z.optional(z.string().check(z.maxLength(2000))),
      visibility: z.optional(visibility),
      parent_id: z.optional(positiveInt()),
      ...groupSettingFields,
    }),
  },
  async ({ c, principal, body }) => {
    const group = await createGroup(principal, { name: body.name, path: body.path, description: body.description, visibility: body.visibility, parentId: body.parent_id, ...chosenGroupSettings(body) });
    return withBranchProtection(groupView(group, baseUrl(c)), group);
  },
);
export const handler = lambda(endpoint);
