/** Projects: a namespace entry that owns one repository on a named storage. */
import { addToCount, deleteItem, getItem, getItems, isConditionFailure, nextId, queryAll, readCount, transact, type TransactItem } from "../../platform/db/table.js";
import { ApiError, badRequest, notFound } from "../../platform/http/errors.js";
import type { Principal } from "../../identity/domain/auth.js";
import { branchProtectionSetting, pickStorage } from "../../identity/domain/settings.js";
import { AccessLevel, canSee, projectLevel, type SharedGroup, type Visibility } from "./access.js";
import { grantInitialMembership } from "./members.js";
import { removeAccessRequestsOf } from "./access-requests.js";
import { removeSharesOfProject } from "./share-writes.js";
import { allProjectsIndex, containerKey, FORK_LINK_PREFIX, forkLinkKey, groupChildKey, pathClaimKey, storageIndexKeys } from "./keys.js";
import { deleteCommitNotesOf } from "./commit-notes.js";
import { newProjectRules, type ProtectedRefs } from "./protected-refs.js";
import type { Namespace } from "./namespaces.js";
import type { Group } from "./groups.js";
import { commitActions, hashedRelativePath, initRepository, removeRepository } from "./git/index.js";
import { withRepositoryWrite } from "./write-path.js";
import { measureSizes } from "./repository-size.js";
import { projectWikiLocation } from "./project-wiki.js";
import { deleteSnippetsOfProject } from "./snippets.js";
import { listProjects, listingAttributes, listingWrites, type ProjectPage } from "./project-listing.js";

export const FEATURES = [
  "issues_access_level",
  "repository_access_level",
  "merge_requests_access_level",
  "wiki_access_level",
  "snippets_access_level",
  "builds_access_level",
  "pages_access_level",
  "monitor_access_level",
  "environments_access_level",
] as const;
export type Feature = (typeof FEATURES)[number];
export type FeatureLevel = "disabled" | "private" | "enabled";

export interface Project {
  id: number;
  name: string;
  path: string;
  description: string;
  visibility: Visibility;
  namespace: Namespace;
  defaultBranch: string;
  features: Record<Feature, FeatureLevel>;
  creatorId: number;
  createdAt: string;
  lastActivityAt: string;
  /** Absent on projects written before they could change; then `lastActivityAt`. */
  updatedAt?: string;
  /** Archived: read-only, kept out of lists that ask for `archived=false` (GitLab). */
  archived?: boolean;
  storage: string;
  relativePath: string;
  readOnly: boolean;
  /** The project this one was forked from (GitLab's `forked_from_project`). */
  forkedFromId?: number;
  /** How many forks were made of it and still exist; absent on projects never forked. */
  forksCount?: number;
  /** Its wiki repository exists (`project-wiki.ts`): set by the first page. */
  wikiRepository?: boolean;
  /** The groups it is shared with (`project-shares.ts`), as a group item keeps its own. */
  shares?: SharedGroup["shares"];
  /** Whether users may ask to join (GitLab's `request_access_enabled`); absent: true. */
  requestAccessEnabled?: boolean;
  /** Its protected branches and tags (`protected-refs.ts`); absent on a project made before they existed: none. */
  protectedRefs?: ProtectedRefs;
}

/** The path (or name) is taken in the namespace: 400 on create, GitLab's 409 on fork. */
export class PathTakenError extends ApiError {
  constructor(status = 400) {
    super(status, { message: { path: ["has already been taken"], name: ["has already been taken"] } });
  }
}

export const fullPathOf = (p: Project) => `${p.namespace.fullPath}/${p.path}`;

export async function findProject(id: number): Promise<Project | undefined> {
  const key = containerKey("project", id);
  return getItem<Project>(key.pk, key.sk);
}

export async function resolveProject(idOrPath: string): Promise<Project | undefined> {
  if (/^\d+$/.test(idOrPath)) return findProject(Number(idOrPath));
  const claim = await getItem<{ kind: string; ownerId: number }>(pathClaimKey(idOrPath).pk, "NAMESPACE");
  return claim?.kind === "project" ? findProject(claim.ownerId) : undefined;
}

const subject = (p: Project) => ({ id: p.id, visibility: p.visibility, namespaceKind: p.namespace.kind, namespaceOwnerId: p.namespace.ownerId, groupIds: p.namespace.groupIds, shares: p.shares });

/** The caller's access level on a project already read. */
export const levelOnProject = (principal: Principal | undefined, project: Project) => projectLevel(principal, subject(project));

/** The project if the caller may see it, with the caller's access level; 404 otherwise. */
export async function visibleProject(principal: Principal | undefined, idOrPath: string, minLevel = 0) {
  const project = await resolveProject(idOrPath);
  if (!project) throw notFound("Project");
  const level = await projectLevel(principal, subject(project));
  if (!canSee(principal, project.visibility, level)) throw notFound("Project");
  return { project, level, allowed: level >= minLevel };
}

/**
 * The projects among `ids` the caller may see, in the order given, with the caller's level: one
 * batched read for all of them (a user's project list would otherwise cost a GetItem per project).
 */
export async function visibleProjects(principal: Principal | undefined, ids: number[], keep: (p: Project) => boolean = () => true): Promise<Array<{ project: Project; level: number }>> {
  // `keep` narrows before the caller's level is looked up: those reads are only for projects wanted.
  const found = (await getItems<Project>(ids.map((id) => containerKey("project", id)))).filter((p): p is Project => !!p && keep(p));
  const levels = await Promise.all(found.map((project) => projectLevel(principal, subject(project))));
  return found.flatMap((project, i) => (canSee(principal, project.visibility, levels[i]!) ? [{ project, level: levels[i]! }] : []));
}

export async function createProject(
  principal: Principal,
  ns: Namespace,
  input: {
    name: string;
    path: string;
    description?: string;
    visibility?: Visibility;
    defaultBranch?: string;
    features?: Partial<Record<Feature, FeatureLevel>>;
    requestAccessEnabled?: boolean;
    /** A configured storage an administrator chose; otherwise the weighted pick. */
    storage?: string;
    /** The group item of a group namespace, as the caller read it: its default branch protection. */
    group?: Pick<Group, "branchProtection">;
    /** A fork: the source, and how its repository is copied into the new location (instead of an empty one). */
    fork?: { sourceId: number; copyInto: (storage: string, relativePath: string) => Promise<void> };
  },
): Promise<Project> {
  const storage = input.storage ?? (await pickStorage());
  if (!storage) throw badRequest("no repository storage is available for new projects");
  const id = await nextId("projects");
  const now = new Date().toISOString();
  const project: Project = {
    id,
    name: input.name,
    path: input.path,
    description: input.description ?? "",
    visibility: input.visibility ?? "private",
    namespace: ns,
    defaultBranch: input.defaultBranch ?? "main",
    features: { ...Object.fromEntries(FEATURES.map((f) => [f, "enabled"])), ...input.features } as Record<Feature, FeatureLevel>,
    creatorId: principal.user.id,
    createdAt: now,
    lastActivityAt: now,
    updatedAt: now,
    archived: false,
    requestAccessEnabled: input.requestAccessEnabled ?? true,
    storage,
    relativePath: hashedRelativePath("project", id),
    readOnly: false,
    ...(input.fork ? { forkedFromId: input.fork.sourceId } : {}),
    // Its default branch protected as its group or the instance says, from the start (GitLab: from its
    // first push): `Namespace#default_branch_protection_settings`, the group's own, else the instance's.
    protectedRefs: await newProjectRules(input.defaultBranch ?? "main", input.group?.branchProtection ?? (await branchProtectionSetting())),
  };
  // The repository exists before the item that points at it, so no reader ever sees a dangling project.
  if (input.fork) await input.fork.copyInto(storage, project.relativePath);
  else await initRepository(storage, project.relativePath, { defaultBranch: project.defaultBranch });
  // A new repository's size is recorded with its item, as every later write records it (`repository-size.ts`).
  const sizes = await measureSizes("project", storage, project.relativePath);
  const items: TransactItem[] = [
    { Put: { Item: { ...pathClaimKey(fullPathOf(project)), kind: "project", ownerId: id }, ConditionExpression: "attribute_not_exists(pk)" } },
    { Put: { Item: { ...containerKey("project", id), ...allProjectsIndex(id), ...storageIndexKeys("project", storage, id), type: "project", ...project, ...listingAttributes(project), ...sizes } } },
    ...listingWrites(undefined, project),
  ];
  if (ns.kind === "group") items.push({ Put: { Item: { ...groupChildKey(ns.id, "project", id) } } });
  if (input.fork) items.push(...forkLinkWrites(input.fork.sourceId, id, 1));
  try {
    await transact(items);
  } catch (err) {
    await removeRepository(storage, project.relativePath);
    if (isConditionFailure(err)) throw new PathTakenError();
    throw err;
  }
  await countProjectsBy(1);
  // The creator gets a direct membership so the project is in its own list (owners of a personal
  // namespace are Owners anyway; in a group GitLab's creator is a Maintainer).
  await grantInitialMembership("project", id, principal.user.id, ns.kind === "user" ? AccessLevel.owner : AccessLevel.maintainer);
  return project;
}

/**
 * `initialize_with_readme`: the new project's first commit, a README with its name and description,
 * through the one write path. Apart from `createProject`, so that a fork's bundle, which never
 * makes one, leaves the commit machinery out.
 */
export async function initializeWithReadme(principal: Principal, project: Project): Promise<void> {
  await withRepositoryWrite("project", project.id, (location) =>
    commitActions(location!.storage, location!.relativePath, {
      branch: project.defaultBranch,
      message: "Initial commit",
      author: { name: principal.user.name, email: principal.user.email },
      actions: [{ action: "create", file_path: "README.md", content: `# ${project.name}\n\n${project.description}\n` }],
    }),
  );
}

export async function updateProject(project: Project, changes: Partial<Pick<Project, "name" | "description" | "visibility" | "defaultBranch" | "requestAccessEnabled">> & { features?: Partial<Record<Feature, FeatureLevel>> }) {
  const defined = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
  const now = new Date().toISOString();
  return saveProject(project, { ...project, ...defined, features: { ...project.features, ...changes.features }, lastActivityAt: now, updatedAt: now });
}

/** Archives or unarchives (GitLab: an archived project is read-only); answers the project as it now is. */
export async function setArchived(project: Project, archived: boolean): Promise<Project> {
  if ((project.archived ?? false) === archived) return project;
  return saveProject(project, { ...project, archived, updatedAt: new Date().toISOString() });
}

/** Writes a project's editable fields and, in the same transaction, its list entries. */
async function saveProject(before: Project, next: Project): Promise<Project> {
  const listed = listingAttributes(next);
  await transact([
    {
      Update: {
        Key: containerKey("project", before.id),
        UpdateExpression: "SET #n = :n, description = :d, visibility = :v, defaultBranch = :b, features = :f, lastActivityAt = :t, updatedAt = :u, archived = :a, searchText = :s, projectId = :id, requestAccessEnabled = :r",
        ExpressionAttributeNames: { "#n": "name" },
        ExpressionAttributeValues: {
          ":n": next.name,
          ":d": next.description,
          ":v": next.visibility,
          ":b": next.defaultBranch,
          ":f": next.features,
          ":t": next.lastActivityAt,
          ":u": next.updatedAt,
          ":a": listed.archived,
          ":s": listed.searchText,
          ":id": next.id,
          ":r": next.requestAccessEnabled ?? true,
        },
        ConditionExpression: "attribute_exists(pk)",
      },
    },
    ...listingWrites(before, next),
  ]);
  return next;
}

/**
 * Deletes the project, its snippets and their repositories, its wiki's too. Refused while a repository is read-only
 * (a storage move holds it): deleting under a running move would leave a copy behind on the destination.
 */
export async function deleteProject(project: Project): Promise<void> {
  await deleteSnippetsOfProject(project.id);
  await withRepositoryWrite("project", project.id, async (location, item) => {
    await transact([
      { Delete: { Key: containerKey("project", project.id) } },
      { Delete: { Key: pathClaimKey(fullPathOf(project)) } },
      ...listingWrites(project, undefined),
      ...(project.namespace.kind === "group" ? [{ Delete: { Key: groupChildKey(project.namespace.id, "project", project.id) } }] : []),
      // A source deleted before its fork has no count left to keep.
      ...(project.forkedFromId ? forkLinkWrites(project.forkedFromId, project.id, -1, !!(await findProject(project.forkedFromId))) : []),
    ]);
    if (location) await removeRepository(location.storage, location.relativePath);
    const wiki = projectWikiLocation(item);
    if (wiki) await removeRepository(wiki.storage, wiki.relativePath);
  });
  // Its forks stay, unlinked: their entries here are of no use any more.
  const forks = await queryAll<{ pk: string; sk: string }>({ pk: forkLinkKey(project.id, 0).pk, skPrefix: FORK_LINK_PREFIX, projection: ["pk", "sk"] });
  await Promise.all([...forks.map((f) => deleteItem(f.pk, f.sk)), removeSharesOfProject(project.id), removeAccessRequestsOf("project", project.id), deleteCommitNotesOf(project.id)]);
  await countProjectsBy(-1);
}

/**
 * The fork's entry in its source's partition (what `GET /projects/:id/forks` reads) and the source's
 * `forksCount`, in the transaction that creates (`delta` 1) or deletes (-1) the fork.
 */
function forkLinkWrites(sourceId: number, forkId: number, delta: 1 | -1, countOnSource = true): TransactItem[] {
  const link: TransactItem = delta > 0 ? { Put: { Item: { ...forkLinkKey(sourceId, forkId), projectId: forkId } } } : { Delete: { Key: forkLinkKey(sourceId, forkId) } };
  if (!countOnSource) return [link];
  const count: TransactItem = {
    Update: { Key: containerKey("project", sourceId), UpdateExpression: "ADD forksCount :d", ExpressionAttributeValues: { ":d": delta }, ConditionExpression: "attribute_exists(pk)" },
  };
  return [link, count];
}

/**
 * The number of projects, kept as a counter beside them so the admin list can send `X-Total`
 * without counting. Not part of the create/delete transaction: one hot item in every transaction
 * would make concurrent creations conflict.
 */
export const projectCount = () => readCount("projects");
const countProjectsBy = (delta: number) => addToCount("projects", delta);

export type { ProjectPage } from "./project-listing.js";

/** Admin view: every project, or those on one storage (`repository_storage`), newest first. */
export const listAllProjects = (offset: number, limit: number, storage?: string): Promise<ProjectPage> =>
  listProjects(undefined, { orderBy: "id", ascending: false, storage }, offset, limit, { admin: true });

/** What a user sees (or, with `membership`, is a member of), newest first. */
export const listVisibleProjects = (principal: Principal | undefined, offset: number, limit: number, opts: { membership?: boolean } = {}): Promise<ProjectPage> =>
  listProjects(principal, { orderBy: "id", ascending: false, membership: opts.membership }, offset, limit);
