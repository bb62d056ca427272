/** Projects: a namespace entry that owns one repository on a named storage. */
import { getItem, isConditionFailure, nextId, transact, queryPage, GSI1, GSI2, type TransactItem } from "../../platform/db/table.js";
import { badRequest, notFound, validationError } from "../../platform/http/errors.js";
import type { Principal } from "../../identity/domain/auth.js";
import { pickStorage } from "../../identity/domain/settings.js";
import { AccessLevel, canSee, projectLevel, type Visibility } from "./access.js";
import { grantInitialMembership } from "./members.js";
import { allProjectsIndex, containerKey, groupChildKey, pathClaimKey, storageIndexKeys, storageIndexPk, visibleMarkerKey } from "./keys.js";
import type { Namespace } from "./namespaces.js";
import { commitActions, hashedRelativePath, initRepository, removeRepository } from "./git/index.js";
import { withRepositoryWrite } from "./write-path.js";
import { projectIdsThroughGroups } from "./group-listing.js";

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
  storage: string;
  relativePath: string;
  readOnly: boolean;
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

const subject = (p: Project) => ({ id: p.id, visibility: p.visibility, namespaceKind: p.namespace.kind, namespaceOwnerId: p.namespace.ownerId, groupIds: p.namespace.groupIds });

/** The project if the caller may see it, with the caller's access level; 404 otherwise. */
export async function visibleProject(principal: Principal | undefined, idOrPath: string, minLevel = 0) {
  const project = await resolveProject(idOrPath);
  if (!project) throw notFound("Project");
  const level = await projectLevel(principal, subject(project));
  if (!canSee(principal, project.visibility, level)) throw notFound("Project");
  return { project, level, allowed: level >= minLevel };
}

export async function createProject(
  principal: Principal,
  ns: Namespace,
  input: { name: string; path: string; description?: string; visibility?: Visibility; initializeWithReadme?: boolean; defaultBranch?: string; features?: Partial<Record<Feature, FeatureLevel>> },
): Promise<Project> {
  const storage = await pickStorage();
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
    storage,
    relativePath: hashedRelativePath("project", id),
    readOnly: false,
  };
  // The repository exists before the item that points at it, so no reader ever sees a dangling project.
  await initRepository(storage, project.relativePath, { defaultBranch: project.defaultBranch });
  const items: TransactItem[] = [
    { Put: { Item: { ...pathClaimKey(fullPathOf(project)), kind: "project", ownerId: id }, ConditionExpression: "attribute_not_exists(pk)" } },
    { Put: { Item: { ...containerKey("project", id), ...allProjectsIndex(id), ...storageIndexKeys("project", storage, id), type: "project", ...project } } },
  ];
  if (project.visibility !== "private") items.push({ Put: { Item: { ...visibleMarkerKey("project", id), visibility: project.visibility } } });
  if (ns.kind === "group") items.push({ Put: { Item: { ...groupChildKey(ns.id, "project", id) } } });
  try {
    await transact(items);
  } catch (err) {
    await removeRepository(storage, project.relativePath);
    if (isConditionFailure(err)) throw validationError({ path: ["has already been taken"], name: ["has already been taken"] });
    throw err;
  }
  // The creator gets a direct membership so the project is in its own list (owners of a personal
  // namespace are Owners anyway; in a group GitLab's creator is a Maintainer).
  await grantInitialMembership("project", id, principal.user.id, ns.kind === "user" ? AccessLevel.owner : AccessLevel.maintainer);
  if (input.initializeWithReadme) {
    await withRepositoryWrite("project", id, (location) =>
      commitActions(location!.storage, location!.relativePath, {
        branch: project.defaultBranch,
        message: "Initial commit",
        author: { name: principal.user.name, email: principal.user.email },
        actions: [{ action: "create", file_path: "README.md", content: `# ${project.name}\n\n${project.description}\n` }],
      }),
    );
  }
  return project;
}

export async function updateProject(project: Project, changes: Partial<Pick<Project, "name" | "description" | "visibility" | "defaultBranch">> & { features?: Partial<Record<Feature, FeatureLevel>> }) {
  const defined = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
  const next: Project = { ...project, ...defined, features: { ...project.features, ...changes.features } };
  await transact([
    {
      Update: {
        Key: containerKey("project", project.id),
        UpdateExpression: "SET #n = :n, description = :d, visibility = :v, defaultBranch = :b, features = :f, lastActivityAt = :t",
        ExpressionAttributeNames: { "#n": "name" },
        ExpressionAttributeValues: { ":n": next.name, ":d": next.description, ":v": next.visibility, ":b": next.defaultBranch, ":f": next.features, ":t": new Date().toISOString() },
        ConditionExpression: "attribute_exists(pk)",
      },
    },
    next.visibility === "private"
      ? { Delete: { Key: visibleMarkerKey("project", project.id) } }
      : { Put: { Item: { ...visibleMarkerKey("project", project.id), visibility: next.visibility } } },
  ]);
  return next;
}

/**
 * Deletes the project and its repository. Refused while the repository is read-only (a storage move
 * holds it): deleting under a running move would leave a copy behind on the destination.
 */
export async function deleteProject(project: Project): Promise<void> {
  await withRepositoryWrite("project", project.id, async (location) => {
    await transact([
      { Delete: { Key: containerKey("project", project.id) } },
      { Delete: { Key: pathClaimKey(fullPathOf(project)) } },
      { Delete: { Key: visibleMarkerKey("project", project.id) } },
      ...(project.namespace.kind === "group" ? [{ Delete: { Key: groupChildKey(project.namespace.id, "project", project.id) } }] : []),
    ]);
    if (location) await removeRepository(location.storage, location.relativePath);
  });
}

export interface ProjectPage {
  projects: Project[];
  hasMore: boolean;
}

/** Admin view: every project, or those on one storage (`repository_storage`), newest first. */
export async function listAllProjects(offset: number, limit: number, storage?: string): Promise<ProjectPage> {
  const page = storage
    ? await queryPage<Project>({ index: GSI2, pk: storageIndexPk("project", storage), offset, limit })
    : await queryPage<Project>({ index: GSI1, pk: "PROJECTS", offset, limit });
  return { projects: page.items, hasMore: page.hasMore };
}

/**
 * What a non-admin sees: projects it is a member of, directly or through a group (and its
 * subgroups), plus every public/internal project, merged newest first. Every source is a Query
 * ordered by id, so a page needs at most `offset + limit + 1` keys from each.
 */
export async function listVisibleProjects(principal: Principal | undefined, offset: number, limit: number, opts: { membership?: boolean } = {}): Promise<ProjectPage> {
  const want = offset + limit + 1;
  const ids = new Set<number>();
  if (principal) {
    const mine = await queryPage<{ gsi1sk: string }>({ index: GSI1, pk: `USER#${principal.user.id}#PROJECTS`, offset: 0, limit: want });
    mine.items.forEach((m) => ids.add(Number(m.gsi1sk)));
    (await projectIdsThroughGroups(principal.user.id, want)).forEach((id) => ids.add(id));
  }
  if (!opts.membership) {
    const open = await queryPage<{ sk: string; visibility: Visibility }>({ pk: "VISIBLE#project", offset: 0, limit: want });
    open.items.filter((m) => principal || m.visibility === "public").forEach((m) => ids.add(Number(m.sk)));
  }
  const ordered = [...ids].sort((a, b) => b - a);
  const slice = ordered.slice(offset, offset + limit);
  const projects = (await Promise.all(slice.map(findProject))).filter((p): p is Project => !!p);
  return { projects, hasMore: ordered.length > offset + limit };
}

