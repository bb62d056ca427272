/** Group lists as Queries: all groups (admin), or memberships merged with public/internal groups. */
import { queryPage, GSI1 } from "../../platform/db/table.js";
import type { Principal } from "../../identity/domain/auth.js";
import { findGroup, type Group } from "./groups.js";
import type { Visibility } from "./access.js";

export async function listGroups(principal: Principal | undefined, offset: number, limit: number): Promise<{ groups: Group[]; hasMore: boolean }> {
  if (principal?.user.admin) {
    const page = await queryPage<Group>({ index: GSI1, pk: "GROUPS", offset, limit, ascending: true });
    return { groups: page.items, hasMore: page.hasMore };
  }
  const want = offset + limit + 1;
  const ids = new Set<number>();
  if (principal) {
    const mine = await queryPage<{ gsi1sk: string }>({ index: GSI1, pk: `USER#${principal.user.id}#GROUPS`, offset: 0, limit: want, ascending: true });
    mine.items.forEach((m) => ids.add(Number(m.gsi1sk)));
  }
  const open = await queryPage<{ sk: string; visibility: Visibility }>({ pk: "VISIBLE#group", offset: 0, limit: want, ascending: true });
  open.items.filter((m) => principal || m.visibility === "public").forEach((m) => ids.add(Number(m.sk)));
  const ordered = [...ids].sort((a, b) => a - b);
  const groups = (await Promise.all(ordered.slice(offset, offset + limit).map(findGroup))).filter((g): g is Group => !!g);
  return { groups, hasMore: ordered.length > offset + limit };
}

/** Whether a group still holds projects or subgroups (checked before deletion). */
export async function groupHasChildren(groupId: number): Promise<boolean> {
  const page = await queryPage({ pk: `GROUP#${groupId}`, skPrefix: "CHILD#", offset: 0, limit: 1 });
  return page.items.length > 0;
}
