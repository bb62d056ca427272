/**
 * What the invited-groups lists of projects and groups share (GitLab's `InvitedGroupsFinder`): the
 * groups a container is shared with (`direct`) and those its ancestor groups are shared with
 * (`inherited`), both unless `relation` names one; only those the caller can see, by id.
 */
import * as z from "zod/mini";
import type { Context } from "hono";
import { bool, pageQuery } from "../../platform/http/params.js";
import { pageRequest, slicePage } from "../../platform/http/pagination.js";
import { baseUrl } from "../../platform/http/urls.js";
import type { Principal } from "../../identity/domain/auth.js";
import { activeShares, chainShares, type SharedGroup } from "../domain/access.js";
import { groupView } from "../domain/groups.js";
import { visibleGroupsAmong } from "../domain/group-listing.js";
import { accessLevel } from "./schemas.js";

const RELATIONS = ["direct", "inherited"] as const;

export const invitedGroupsQuery = z.object({
  ...pageQuery,
  search: z.optional(z.string().check(z.maxLength(255))),
  min_access_level: z.optional(accessLevel()),
  // Grape's `Array[String]` with GitLab's comma-separated coercion; `relation[]=…` is read beside it.
  relation: z.optional(z.string().check(z.regex(/^(direct|inherited)(,(direct|inherited))*$/))),
  // Custom attributes (administrators') are not kept here: there are none to include.
  with_custom_attributes: z.optional(bool()),
});

/** `container`: the project or group item (its `shares`); `ancestorIds`: the groups above it. */
export async function invitedGroups(c: Context, principal: Principal | undefined, query: z.output<typeof invitedGroupsQuery>, container: SharedGroup, ancestorIds: number[]) {
  const named = [...(query.relation?.split(",") ?? []), ...z.parse(z.array(z.enum(RELATIONS)), c.req.queries("relation[]") ?? [])];
  const wanted = new Set(named.length ? named : RELATIONS);
  const ids = [
    ...(wanted.has("direct") ? activeShares(container).map((s) => s.withGroupId) : []),
    ...(wanted.has("inherited") ? (await chainShares(ancestorIds)).map((s) => s.withGroupId) : []),
  ];
  const groups = await visibleGroupsAmong(principal, ids, { search: query.search || undefined, minAccessLevel: query.min_access_level });
  return slicePage(c, pageRequest(query), groups).map((g) => groupView(g, baseUrl(c)));
}
