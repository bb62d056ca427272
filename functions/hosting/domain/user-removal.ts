/**
 * Deleting a user account, as GitLab does it for what the user holds in hosting: a user who is the
 * only Owner of a group cannot be removed unless `hard_delete` is given, which removes those groups
 * too; the user's personal projects and personal snippets are deleted with their repositories (this
 * service keeps no "Ghost User" to inherit them); the user's memberships disappear. Each repository
 * goes through the write path, so one held by a storage move refuses the deletion with the read-only
 * error before the account itself is touched.
 */
import { deleteItem, queryAll, GSI1 } from "../../platform/db/table.js";
import { ApiError } from "../../platform/http/errors.js";
import { removeUserRecord } from "../../identity/domain/user-admin.js";
import type { User } from "../../identity/domain/users.js";
import { AccessLevel, activeLevel, type MemberRecord } from "./access.js";
import { findGroup, type Group } from "./groups.js";
import { deleteEmptyGroupNow, scheduleGroupDeletion } from "./group-deletion.js";
import { groupHasChildren } from "./group-listing.js";
import { deleteProject, findProject } from "./projects.js";
import { deleteSnippet, findSnippet } from "./snippets.js";
import { personalProjectKey, PERSONAL_PROJECT_PREFIX, snippetsOfAuthorIndex } from "./keys.js";

type Membership = MemberRecord & { pk: string; sk: string; gsi1sk: string };

const membershipsOf = (kind: "PROJECTS" | "GROUPS", userId: number) => queryAll<Membership>({ index: GSI1, pk: `USER#${userId}#${kind}` });

/** Groups in which the user is the only active Owner among the direct members. */
export async function groupsSolelyOwnedBy(userId: number): Promise<Group[]> {
  const owned = (await membershipsOf("GROUPS", userId)).filter((m) => activeLevel(m) >= AccessLevel.owner);
  const sole = await Promise.all(
    owned.map(async (m) => {
      const members = await queryAll<MemberRecord>({ pk: m.pk, skPrefix: "MEMBER#" });
      return members.some((o) => o.userId !== userId && activeLevel(o) >= AccessLevel.owner) ? undefined : findGroup(Number(m.gsi1sk));
    }),
  );
  return sole.filter((g): g is Group => !!g);
}

export async function removeUser(user: User, opts: { hardDelete: boolean }): Promise<void> {
  const soleGroups = await groupsSolelyOwnedBy(user.id);
  if (soleGroups.length && !opts.hardDelete) throw new ApiError(409, { message: "User cannot be removed while is the sole-owner of a group" });
  // As DELETE /groups/:id: an empty group goes now, one with projects or subgroups is handed to the
  // group-deletion job (refused with the read-only error while any of its repositories is moving).
  const withContents = await Promise.all(soleGroups.map((g) => groupHasChildren(g.id)));
  for (const [i, group] of soleGroups.entries()) {
    if (withContents[i]) await scheduleGroupDeletion(group);
    else await deleteEmptyGroupNow(group);
  }
  const projectMemberships = await membershipsOf("PROJECTS", user.id);
  // Personal projects by their entries and, for projects written before those existed, by the
  // owner's membership.
  const personal = await queryAll<{ projectId: number }>({ pk: personalProjectKey(user.id, 0).pk, skPrefix: PERSONAL_PROJECT_PREFIX, projection: ["projectId"] });
  for (const id of new Set([...personal.map((e) => e.projectId), ...projectMemberships.map((m) => Number(m.gsi1sk))])) {
    const project = await findProject(id);
    if (project?.namespace.kind === "user" && project.namespace.id === user.id) await deleteProject(project);
  }
  const snippets = await queryAll<{ id: number }>({ index: GSI1, pk: snippetsOfAuthorIndex(user.id, 0).gsi1pk, projection: ["id"] });
  for (const s of snippets) {
    const snippet = await findSnippet(s.id);
    if (snippet) await deleteSnippet(snippet);
  }
  const memberships = [...projectMemberships, ...(await membershipsOf("GROUPS", user.id))];
  await Promise.all(memberships.map((m) => deleteItem(m.pk, m.sk)));
  await removeUserRecord(user.id);
}
