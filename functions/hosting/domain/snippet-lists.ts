/**
 * The instance-wide snippet lists, GitLab's `GET /snippets/public` and `GET /snippets/all`, newest
 * first, from Queries only:
 * - public and internal snippets, personal and project, have an entry among `VISIBLE#snippet`
 *   (`keys.ts`, written with the snippet), carrying what the lists filter on;
 * - every snippet is in its storage's index (an administrator's list merges the storages');
 * - a user's personal snippets are in its author index, a project's in the project's.
 * Snippets written before the visible entries existed are missing from the public list (and from
 * other users' `all`) until their next change.
 */
import { getItems, queryAll, queryPage, GSI1, GSI2 } from "../../platform/db/table.js";
import { mapConcurrently } from "../../platform/concurrency.js";
import { storageNames } from "../../platform/config.js";
import type { Principal } from "../../identity/domain/auth.js";
import { AccessLevel, canSee, type Visibility } from "./access.js";
import { containerKey, snippetsOfAuthorIndex, snippetsOfProjectIndex, storageIndexPk, visibleMarkerKey } from "./keys.js";
import { memberProjectIds } from "./project-listing.js";
import { visibleProjects, type Project } from "./projects.js";
import type { Snippet } from "./snippets.js";

/** `created_after` / `created_before` (ISO 8601), both exclusive, as GitLab's `created_after` scopes. */
export interface CreatedRange {
  after?: string;
  before?: string;
}

interface VisibleEntry {
  sk: string;
  visibility: Visibility;
  createdAt: string;
  projectId?: number;
}

export interface SnippetPage {
  /** Each with its project for a project snippet (its URLs are under the project's path). */
  snippets: Array<{ snippet: Snippet; project?: Project }>;
  hasMore: boolean;
}

const inRange = (createdAt: string, range: CreatedRange) => (!range.after || createdAt > range.after) && (!range.before || createdAt < range.before);

function createdFilter(range: CreatedRange, more: string[] = []) {
  const parts = [...more];
  const values: Record<string, unknown> = {};
  if (range.after) (parts.push("createdAt > :after"), (values[":after"] = range.after));
  if (range.before) (parts.push("createdAt < :before"), (values[":before"] = range.before));
  return { parts, values };
}

const byIdDesc = (a: Snippet, b: Snippet) => b.id - a.id;

/** Public personal snippets, everyone's (GitLab's `Snippet.only_personal_snippets.are_public`). */
export async function listPublicSnippets(range: CreatedRange, offset: number, limit: number): Promise<SnippetPage> {
  const { parts, values } = createdFilter(range, ["visibility = :public", "attribute_not_exists(projectId)"]);
  const page = await queryPage<VisibleEntry>({
    pk: visibleMarkerKey("snippet", 0).pk,
    offset,
    limit,
    filter: { expression: parts.join(" AND "), values: { ...values, ":public": "public" } },
  });
  const snippets = await getItems<Snippet>(page.items.map((e) => containerKey("snippet", Number(e.sk))));
  return { snippets: snippets.flatMap((s) => (s ? [{ snippet: s }] : [])), hasMore: page.hasMore };
}

/**
 * Every snippet, personal and project (administrators): the storages' indexes (one, with
 * `repository_storage`) merged by id, each read no further than the page needs.
 */
export async function listAllSnippetsAsAdmin(range: CreatedRange, storage: string | undefined, offset: number, limit: number): Promise<SnippetPage> {
  const { parts, values } = createdFilter(range);
  const filter = parts.length ? { expression: parts.join(" AND "), values } : undefined;
  const pages = await Promise.all(
    (storage === undefined ? storageNames() : [storage]).map((name) => queryPage<Snippet>({ index: GSI2, pk: storageIndexPk("snippet", name), offset: 0, limit: offset + limit, filter })),
  );
  const merged = pages.flatMap((p) => p.items).sort(byIdDesc);
  const slice = merged.slice(offset, offset + limit);
  return { snippets: await withProjects(slice), hasMore: merged.length > offset + limit || pages.some((p) => p.hasMore) };
}

/**
 * Every snippet a user may see, as GitLab's `SnippetsFinder` unions them: its own personal snippets,
 * every public and internal personal one, the public and internal snippets of projects it may read
 * the snippets of, and the snippets of the projects it is a member of that its level shows. These
 * sets are read whole (the visible entries, the member projects' snippet lists), then paged.
 */
export async function listAllSnippetsForUser(principal: Principal, range: CreatedRange, offset: number, limit: number): Promise<SnippetPage> {
  const userId = principal.user.id;
  const [own, visible, member] = await Promise.all([
    queryAll<Snippet>({ index: GSI1, pk: snippetsOfAuthorIndex(userId, 0).gsi1pk }),
    queryAll<VisibleEntry>({ pk: visibleMarkerKey("snippet", 0).pk }),
    memberProjectIds(userId),
  ]);
  // Candidates by id; each is checked on its item below (it may have changed since it was listed).
  const candidates = new Set<number>(own.filter((s) => inRange(s.createdAt, range)).map((s) => s.id));
  for (const e of visible) if (inRange(e.createdAt, range)) candidates.add(Number(e.sk));
  // The projects whose snippets may show: those of visible snippets, and the member projects.
  const projectIds = new Set<number>([...member, ...visible.flatMap((e) => (e.projectId === undefined ? [] : [e.projectId]))]);
  const readable = new Map<number, { project: Project; level: number }>();
  for (const found of await visibleProjects(principal, [...projectIds], (p) => p.features.snippets_access_level !== "disabled")) {
    if (found.project.features.snippets_access_level !== "private" || found.level >= AccessLevel.guest) readable.set(found.project.id, found);
  }
  // A member's project shows its private snippets too: its snippet list is read (one Query each).
  const memberLists = await mapConcurrently(
    [...readable.values()].filter((r) => r.level >= AccessLevel.guest),
    8,
    (r) => queryAll<Pick<Snippet, "id" | "createdAt">>({ index: GSI1, pk: snippetsOfProjectIndex(r.project.id, 0).gsi1pk, projection: ["id", "createdAt"] }),
  );
  for (const s of memberLists.flat()) if (inRange(s.createdAt, range)) candidates.add(s.id);
  const ids = [...candidates].sort((a, b) => b - a);
  const shown: Array<{ snippet: Snippet; project?: Project }> = [];
  // Read in pages of the candidates, newest first, until the page is full (private ones are checked on the item).
  for (let i = 0; i < ids.length && shown.length <= offset + limit; i += 100) {
    const items = await getItems<Snippet>(ids.slice(i, i + 100).map((id) => containerKey("snippet", id)));
    for (const s of items) {
      if (!s || !inRange(s.createdAt, range)) continue;
      if (s.projectId === undefined) {
        if (s.authorId === userId || s.visibility !== "private") shown.push({ snippet: s });
        continue;
      }
      const access = readable.get(s.projectId);
      if (access && canSee(principal, s.visibility, access.level)) shown.push({ snippet: s, project: access.project });
    }
  }
  return { snippets: shown.slice(offset, offset + limit), hasMore: shown.length > offset + limit };
}

/** The project of each project snippet, read once each. */
async function withProjects(snippets: Snippet[]): Promise<SnippetPage["snippets"]> {
  const ids = [...new Set(snippets.flatMap((s) => (s.projectId === undefined ? [] : [s.projectId])))];
  const projects = new Map((await getItems<Project>(ids.map((id) => containerKey("project", id)))).flatMap((p) => (p ? [[p.id, p] as const] : [])));
  return snippets.map((snippet) => ({ snippet, project: snippet.projectId === undefined ? undefined : projects.get(snippet.projectId) }));
}
