import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { baseUrl } from "../../platform/http/urls.js";
import { forbidden } from "../../platform/http/errors.js";
import { AccessLevel } from "../domain/access.js";
import { groupView, updateGroup, visibleGroup } from "../domain/groups.js";
import { renameGroupTree } from "../domain/group-transfer.js";
import { groupParams, visibility } from "./schemas.js";
import { chosenGroupSettings, groupSettingFields, withBranchProtection } from "./group-settings.js";

/** Owner (GitLab: `admin_group`). */
export const endpoint = defineEndpoint(
  {
    summary: "Update a group",
    access: "write",
    params: groupParams,
    body: z.object({
      name: z.optional(z.string().check(z.minLength(1), z.maxLength(255))),
      description: z.optional(z.string().check(z.maxLength(2000))),
      visibility: z.optional(visibility),
      ...groupSettingFields,
    }),
  },
  async ({ c, principal, params, body }) => {
    const { group, level } = await visibleGroup(principal, params.id);
    if (level < AccessLevel.owner) throw forbidden();
    const { name, description, visibility: v } = body;
    const changes = Object.fromEntries(Object.entries({ name, description, visibility: v, ...chosenGroupSettings(body, group) }).filter(([, value]) => value !== undefined));
    const updated = await updateGroup(group, changes);
    return withBranchProtection(groupView(updated.name !== group.name ? await renameGroupTree(updated) : updated, baseUrl(c)), updated);
  },
);
export const handler = lambda(endpoint);
