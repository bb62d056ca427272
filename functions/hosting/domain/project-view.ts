/** GitLab's Project entity as this service fills it. */
import type { Principal } from "../../identity/domain/auth.js";
import { namespaceView } from "./namespaces.js";
import { groupFullName } from "./groups.js";
import { fullPathOf, type Project } from "./projects.js";
import { gitBaseUrl } from "./git-url.js";
import { sharedWithGroupsView } from "./group-shares.js";

/**
 * GitLab's `name_with_namespace`, in every view: the namespace's human name (a group's full name, a
 * user's name), then the project's. Projects written before the full name was kept fall back as `groupFullName` does.
 */
const nameWithNamespace = (project: Project) => `${groupFullName(project.namespace)} / ${project.name}`;

export function projectView(project: Project, baseUrl: string, opts: { admin: boolean }) {
  const fullPath = fullPathOf(project);
  const webUrl = `${baseUrl}/${fullPath}`;
  const host = new URL(baseUrl).host;
  return {
    id: project.id,
    description: project.description,
    name: project.name,
    name_with_namespace: nameWithNamespace(project),
    path: project.path,
    path_with_namespace: fullPath,
    created_at: project.createdAt,
    default_branch: project.defaultBranch,
    tag_list: [],
    topics: [],
    ssh_url_to_repo: `git@${host.split(":")[0]}:${fullPath}.git`,
    http_url_to_repo: `${gitBaseUrl(baseUrl)}/${fullPath}.git`,
    web_url: webUrl,
    readme_url: null,
    avatar_url: null,
    forks_count: project.forksCount ?? 0,
    star_count: 0,
    last_activity_at: project.lastActivityAt,
    namespace: namespaceView(project.namespace, baseUrl),
    visibility: project.visibility,
    archived: project.archived ?? false,
    updated_at: project.updatedAt ?? project.lastActivityAt,
    empty_repo: false,
    creator_id: project.creatorId,
    ...project.features,
    issues_enabled: project.features.issues_access_level !== "disabled",
    merge_requests_enabled: project.features.merge_requests_access_level !== "disabled",
    wiki_enabled: project.features.wiki_access_level !== "disabled",
    snippets_enabled: project.features.snippets_access_level !== "disabled",
    jobs_enabled: project.features.builds_access_level !== "disabled",
    // Admin-only in GitLab: it reveals the instance's storage layout.
    ...(opts.admin ? { repository_storage: project.storage } : {}),
    repository_read_only: project.readOnly,
    request_access_enabled: project.requestAccessEnabled ?? true,
  };
}

/** The entity as `principal` gets it: with `shared_with_groups`, the groups it is shared with that the caller can see. */
export async function projectDetailView(principal: Principal | undefined, project: Project, baseUrl: string) {
  return { ...projectView(project, baseUrl, { admin: principal?.user.admin ?? false }), shared_with_groups: await sharedWithGroupsView(principal, project) };
}

export const projectDetailViews = (principal: Principal | undefined, projects: Project[], baseUrl: string) => Promise.all(projects.map((p) => projectDetailView(principal, p, baseUrl)));

/** GitLab's `BasicProjectDetails`: what `simple=true` and anonymous callers get. */
export function simpleProjectView(project: Project, baseUrl: string) {
  const full = projectView(project, baseUrl, { admin: false });
  const fields = ["id", "description", "name", "name_with_namespace", "path", "path_with_namespace", "created_at", "default_branch", "tag_list", "topics", "ssh_url_to_repo", "http_url_to_repo", "web_url", "readme_url", "forks_count", "avatar_url", "star_count", "last_activity_at", "namespace"] as const;
  return Object.fromEntries(fields.map((f) => [f, full[f]]));
}

/** `ProjectIdentity`: the nested `project` of a storage move record. */
export function projectIdentity(project: Project) {
  return {
    id: project.id,
    description: project.description,
    name: project.name,
    // The namespace's own full name: the storage move functions' bundles have no room for
    // `groupFullName`'s fallback, so a project item written before full names were kept shows its
    // group's own name here.
    name_with_namespace: `${project.namespace.fullName ?? project.namespace.name} / ${project.name}`,
    path: project.path,
    path_with_namespace: fullPathOf(project),
    created_at: project.createdAt,
  };
}
