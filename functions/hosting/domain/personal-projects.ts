/**
 * `GET /users/:id/projects`: the projects in a user's personal namespace that the caller may see,
 * newest first. One Query reads the user's personal project entries (keys.ts), which carry the
 * visibility; only private ones need the caller's level, and only the page's projects are read.
 * A user who is a member of thousands of other projects costs nothing more here (a private one may
 * be shared with the caller's groups: those the caller reaches so are one Query per group it is in).
 */
import { getItems, isConditionFailure, queryAll, updateItem } from "../../platform/db/table.js";
import { mapConcurrently } from "../../platform/concurrency.js";
import type { Principal } from "../../identity/domain/auth.js";
import { canSee, projectLevel, type Visibility } from "./access.js";
import { containerKey, personalProjectKey, PERSONAL_PROJECT_PREFIX } from "./keys.js";
import { projectLevelsThroughShares } from "./project-shares.js";
import type { Project } from "./projects.js";

interface PersonalProjectEntry {
  projectId: number;
  visibility: Visibility;
}

export async function listPersonalProjects(principal: Principal | undefined, userId: number, page: { offset: number; limit: number }): Promise<{ projects: Project[]; total: number }> {
  const entries = await queryAll<PersonalProjectEntry>({
    pk: personalProjectKey(userId, 0).pk,
    skPrefix: PERSONAL_PROJECT_PREFIX,
    ascending: false,
    projection: ["projectId", "visibility"],
  });
  // Public and internal projects need no level: whether the caller is signed in decides. A private
  // one may be shared with a group of the caller's: those are the caller's set, read once.
  const anyPrivate = entries.some((e) => e.visibility === "private");
  const shared = principal && !principal.user.admin && anyPrivate ? await projectLevelsThroughShares(principal.user.id) : new Map<number, number>();
  const levels = await Promise.all(
    entries.map(async (e) =>
      e.visibility === "private"
        ? Math.max(shared.get(e.projectId) ?? 0, await projectLevel(principal, { id: e.projectId, visibility: e.visibility, namespaceKind: "user", namespaceOwnerId: userId, groupIds: [] }))
        : 0,
    ),
  );
  const visible = entries.filter((e, i) => canSee(principal, e.visibility, levels[i]!));
  const pageIds = visible.slice(page.offset, page.offset + page.limit).map((e) => e.projectId);
  const projects = await getItems<Project>(pageIds.map((id) => containerKey("project", id)));
  // A project deleted between the two reads drops out of the page.
  return { projects: projects.filter((p): p is Project => !!p), total: visible.length };
}

/**
 * A user's new name reaches the namespace its personal projects carry (their `name_with_namespace`),
 * as GitLab's names are always current: one conditional update per project of its entries (a project
 * transferred out meanwhile is left alone).
 */
export async function renamePersonalNamespace(user: { id: number; name: string }): Promise<void> {
  const entries = await queryAll<PersonalProjectEntry>({ pk: personalProjectKey(user.id, 0).pk, skPrefix: PERSONAL_PROJECT_PREFIX, projection: ["projectId"] });
  await mapConcurrently(entries, 8, (e) =>
    updateItem({
      ...containerKey("project", e.projectId),
      update: "SET #ns.#name = :name",
      condition: "#ns.kind = :user AND #ns.id = :id",
      names: { "#ns": "namespace", "#name": "name" },
      values: { ":name": user.name, ":user": "user", ":id": user.id },
    }).catch((err: unknown) => {
      if (!isConditionFailure(err)) throw err;
    }),
  );
}
