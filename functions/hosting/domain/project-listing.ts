/**
 * `GET /projects` as Queries. Every source is read in the requested order and only as far as the page
 * needs: administrators read the all-projects index (by id) or an order entry partition (by name, path
 * or a timestamp); everyone else reads the public/internal projects the same way and merges in the
 * projects it reaches by membership. Filters (`archived`, `visibility`, `search`) run inside the
 * Query (a FilterExpression on attributes every listed item carries), never over fetched pages.
 */
import { getItems, pad, queryAll, queryPage, GSI1, GSI2, type TransactItem } from "../../platform/db/table.js";
import type { Principal } from "../../identity/domain/auth.js";
import { activeLevel, AccessLevel, type MemberRecord, type Visibility } from "./access.js";
import { containerKey, personalProjectKey, projectOrderKey, projectOrderPk, storageIndexPk, visibleMarkerKey, type ProjectOrderField } from "./keys.js";
import { projectIdsThroughGroups } from "./group-listing.js";
import { projectLevelsThroughShares } from "./project-shares.js";
import type { Project } from "./projects.js";

export const PROJECT_ORDERS = ["id", "name", "path", "created_at", "updated_at", "last_activity_at"] as const;
export type ProjectOrder = (typeof PROJECT_ORDERS)[number];
const ORDER_FIELDS: readonly ProjectOrderField[] = ["name", "path", "updated_at", "last_activity_at"];

export interface ProjectQuery {
  orderBy: ProjectOrder;
  ascending: boolean;
  archived?: boolean;
  visibility?: Visibility;
  search?: string;
  membership?: boolean;
  owned?: boolean;
  /** Administrators only; such lists are ordered by id (the storage index's order). */
  storage?: string;
  /** Exclusive id bounds (`id_after`/`id_before`), which keyset pagination follows. */
  idAfter?: number;
  idBefore?: number;
}

export interface ProjectPage {
  projects: Project[];
  hasMore: boolean;
}

/** What a project's search matches: its name, path and description, in lower case. */
export const searchTextOf = (p: Pick<Project, "name" | "path" | "description">) => `${p.name}\n${p.path}\n${p.description}`.toLowerCase();

/** The attributes list filters test, carried by the container item, the visible marker and each order entry. */
export const listingAttributes = (p: Project) => ({ projectId: p.id, archived: p.archived ?? false, visibility: p.visibility, searchText: searchTextOf(p) });

/** A project's sort key in a list ordered by `order`: the field, then the padded id (ids grow with creation). */
export function sortValue(p: Project, order: ProjectOrder): string {
  switch (order) {
    case "name":
      return `${p.name.toLowerCase()}#${pad(p.id)}`;
    case "path":
      return `${p.path.toLowerCase()}#${pad(p.id)}`;
    case "updated_at":
      return `${p.updatedAt ?? p.lastActivityAt}#${pad(p.id)}`;
    case "last_activity_at":
      return `${p.lastActivityAt}#${pad(p.id)}`;
    default:
      return pad(p.id);
  }
}

/**
 * Every item that lists the project besides its container item, each carrying the listing
 * attributes: its order entries, its visible marker (public and internal projects) and its personal
 * project entry (a project in a user's namespace).
 */
function listingEntries(p: Project | undefined): Array<{ pk: string; sk: string }> {
  if (!p) return [];
  const listed = p.visibility !== "private";
  const audiences = listed ? (["all", "visible"] as const) : (["all"] as const);
  return [
    ...ORDER_FIELDS.flatMap((field) => audiences.map((audience) => projectOrderKey(field, audience, sortValue(p, field)))),
    ...(listed ? [visibleMarkerKey("project", p.id)] : []),
    ...(p.namespace.kind === "user" ? [personalProjectKey(p.namespace.id, p.id)] : []),
  ];
}

/**
 * Writes that keep the listing entries in step with the project, for the same transaction as the
 * container item's own write (`before` absent on create, `after` on delete): entries that no longer
 * apply are deleted, the others written with the current attributes.
 */
export function listingWrites(before: Project | undefined, after: Project | undefined): TransactItem[] {
  const next = listingEntries(after);
  const kept = new Set(next.map((k) => `${k.pk} ${k.sk}`));
  return [
    ...listingEntries(before)
      .filter((k) => !kept.has(`${k.pk} ${k.sk}`))
      .map((Key) => ({ Delete: { Key } })),
    ...next.map((k) => ({ Put: { Item: { ...k, ...listingAttributes(after!) } } })),
  ];
}

type Filter = { expression: string; names?: Record<string, string>; values?: Record<string, unknown> };

function queryFilter(q: ProjectQuery, publicOnly: boolean, idInKey: boolean): Filter | undefined {
  const parts: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  if (q.archived !== undefined) {
    // Items written before archiving existed carry no flag: they are not archived.
    parts.push(q.archived ? "archived = :archived" : "(attribute_not_exists(archived) OR archived = :archived)");
    values[":archived"] = q.archived;
  }
  for (const [name, visibility] of [["vis", q.visibility], ["pub", publicOnly ? "public" : undefined]] as const) {
    if (!visibility) continue;
    parts.push(`#visibility = :${name}`);
    names["#visibility"] = "visibility";
    values[`:${name}`] = visibility;
  }
  if (q.search) {
    parts.push("contains(searchText, :search)");
    values[":search"] = q.search.toLowerCase();
  }
  if (!idInKey && q.idAfter !== undefined) (parts.push("projectId > :idAfter"), (values[":idAfter"] = q.idAfter));
  if (!idInKey && q.idBefore !== undefined) (parts.push("projectId < :idBefore"), (values[":idBefore"] = q.idBefore));
  if (parts.length === 0) return undefined;
  return { expression: parts.join(" AND "), names: Object.keys(names).length ? names : undefined, values };
}

/** The same filter over a fetched project (the caller's own projects, a per-user set). */
function matches(p: Project, q: ProjectQuery, publicOnly: boolean): boolean {
  if (q.archived !== undefined && (p.archived ?? false) !== q.archived) return false;
  if (q.visibility && p.visibility !== q.visibility) return false;
  if (publicOnly && p.visibility !== "public") return false;
  if (q.search && !searchTextOf(p).includes(q.search.toLowerCase())) return false;
  if (q.idAfter !== undefined && p.id <= q.idAfter) return false;
  if (q.idBefore !== undefined && p.id >= q.idBefore) return false;
  return true;
}

/** Sort-key bounds for `id_after`/`id_before` on a partition whose sort key is the padded id. */
const idRange = (q: ProjectQuery) => ({
  skFrom: q.idAfter !== undefined ? pad(q.idAfter + 1) : undefined,
  skTo: q.idBefore !== undefined ? pad(Math.max(0, q.idBefore - 1)) : undefined,
});

const byId = (order: ProjectOrder) => order === "id" || order === "created_at";

interface Entry {
  key: string;
  id: number;
  project?: Project;
}

/** Instance-wide entries in the requested order: all projects (admin) or the public/internal ones. */
async function openEntries(q: ProjectQuery, audience: "all" | "visible", publicOnly: boolean, want: number): Promise<{ entries: Entry[]; hasMore: boolean }> {
  if (byId(q.orderBy) || q.storage) {
    const filter = queryFilter(q, publicOnly, true);
    const range = { ascending: q.ascending, filter, offset: 0, limit: want, ...idRange(q) };
    if (audience === "visible") {
      const page = await queryPage<{ sk: string }>({ pk: visibleMarkerKey("project", 0).pk, ...range });
      return { entries: page.items.map((m) => ({ key: m.sk, id: Number(m.sk) })), hasMore: page.hasMore };
    }
    const page = q.storage ? await queryPage<Project>({ index: GSI2, pk: storageIndexPk("project", q.storage), ...range }) : await queryPage<Project>({ index: GSI1, pk: "PROJECTS", ...range });
    return { entries: page.items.map((p) => ({ key: pad(p.id), id: p.id, project: p })), hasMore: page.hasMore };
  }
  const page = await queryPage<{ sk: string; projectId: number }>({
    pk: projectOrderPk(q.orderBy as ProjectOrderField, audience),
    ascending: q.ascending,
    filter: queryFilter(q, publicOnly, false),
    offset: 0,
    limit: want,
  });
  return { entries: page.items.map((e) => ({ key: e.sk, id: e.projectId })), hasMore: page.hasMore };
}

/**
 * The ids of the projects a user reaches by membership at `minLevel` or above: direct, through a
 * group and its subgroups, or shared with one of its groups.
 */
export async function memberProjectIds(userId: number, minLevel: number = AccessLevel.guest): Promise<number[]> {
  const [direct, throughGroups, shared] = await Promise.all([
    queryAll<MemberRecord & { gsi1sk: string }>({ index: GSI1, pk: `USER#${userId}#PROJECTS` }),
    projectIdsThroughGroups(userId, Number.MAX_SAFE_INTEGER, minLevel),
    projectLevelsThroughShares(userId),
  ]);
  const ids = new Set(direct.filter((m) => activeLevel(m) >= minLevel).map((m) => Number(m.gsi1sk)));
  throughGroups.forEach((id) => ids.add(id));
  shared.forEach((level, id) => level >= minLevel && ids.add(id));
  return [...ids];
}

/**
 * The projects a user reaches by membership (`memberProjectIds`), or, with `owned`, those it holds
 * as Owner. A per-user set, read whole and filtered after fetching.
 */
async function ownEntries(userId: number, q: ProjectQuery): Promise<Entry[]> {
  const ids = await memberProjectIds(userId, q.owned ? AccessLevel.owner : AccessLevel.guest);
  const projects = (await getItems<Project>(ids.map((id) => containerKey("project", id)))).filter((p): p is Project => !!p);
  return projects.filter((p) => matches(p, q, false)).map((p) => ({ key: sortValue(p, q.orderBy), id: p.id, project: p }));
}

/** `opts.admin` lists as an administrator without one (internal callers that checked already). */
export async function listProjects(principal: Principal | undefined, q: ProjectQuery, offset: number, limit: number, opts: { admin?: boolean } = {}): Promise<ProjectPage> {
  const admin = opts.admin ?? principal?.user.admin ?? false;
  const ownOnly = q.membership || q.owned;
  const own = principal && (ownOnly || !admin) ? await ownEntries(principal.user.id, q) : [];
  const want = offset + limit + 1 + own.length;
  // Anonymous callers see public projects only; an internal caller listing as an administrator sees all.
  const open = ownOnly ? { entries: [], hasMore: false } : await openEntries(q, admin ? "all" : "visible", !principal && !admin, want);
  const merged = new Map<number, Entry>();
  for (const e of [...open.entries, ...own]) merged.set(e.id, merged.get(e.id)?.project ? merged.get(e.id)! : e);
  const ordered = [...merged.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0) * (q.ascending ? 1 : -1));
  const slice = ordered.slice(offset, offset + limit);
  const missing = slice.filter((e) => !e.project);
  const fetched = await getItems<Project>(missing.map((e) => containerKey("project", e.id)));
  missing.forEach((e, i) => (e.project = fetched[i]));
  return {
    projects: slice.flatMap((e) => (e.project ? [e.project] : [])),
    hasMore: ordered.length > offset + limit || open.hasMore,
  };
}
