/**
 * Who may fetch from or push to a repository over Git HTTP, by GitLab's rules: the same visibility,
 * role and feature checks as the API's readers and writers of that repository (reused from them),
 * plus the token scopes git accepts. A repository the caller may not read is reported as hidden, and
 * the caller answers it as if it did not exist.
 */
import type { Principal } from "../../identity/domain/auth.js";
import { ApiError } from "../../platform/http/errors.js";
import { AccessLevel } from "../domain/access.js";
import { visibleProjectSnippet } from "../domain/project-snippets.js";
import { projectWikiLocation } from "../domain/project-wiki.js";
import { visibleSnippet } from "../domain/snippets.js";
import type { ContainerKind } from "../domain/keys.js";
import type { Actor } from "../domain/protected-refs.js";
import type { RepositoryLocation } from "../domain/write-path.js";
import { codeReader } from "../http/repository-access.js";
import { wikiAccess } from "../http/wiki-common.js";
import type { GitService, RepositoryAddress } from "./paths.js";

type ContainerItem = Partial<RepositoryLocation> & { wikiRepository?: boolean };

export interface RepositoryGrant {
  /** The item whose write lease and read-only flag govern the repository. */
  container: { kind: ContainerKind; id: number };
  /** Where the repository is, by the container item just read; undefined while it has none (a wiki without pages). */
  location: RepositoryLocation | undefined;
  /** Finds the repository in a fresh read of the container item (after a storage move switched it). */
  locate: (item: ContainerItem) => RepositoryLocation | undefined;
  mayWrite: boolean;
  /** A project's repository: what its protected branches and tags are checked against on a push. */
  protection?: PushProtection;
}

export interface PushProtection {
  defaultBranch: string;
  actor: Actor;
}

const ownRepository = (item: ContainerItem): RepositoryLocation | undefined =>
  item.storage && item.relativePath ? { storage: item.storage, relativePath: item.relativePath } : undefined;

/** The grant, or undefined when the caller may not read the repository (or it does not exist). */
export async function grantFor(principal: Principal | undefined, address: RepositoryAddress): Promise<RepositoryGrant | undefined> {
  try {
    return await resolveGrant(principal, address);
  } catch (err) {
    // The API's readers answer 404 for hidden and 403 for a disabled feature: over git both are "absent".
    if (err instanceof ApiError && (err.status === 404 || err.status === 403)) return undefined;
    throw err;
  }
}

async function resolveGrant(principal: Principal | undefined, address: RepositoryAddress): Promise<RepositoryGrant> {
  switch (address.kind) {
    case "project": {
      const { project, level } = await codeReader(principal, address.path);
      const protection = { defaultBranch: project.defaultBranch, actor: { level, admin: !!principal?.user.admin } };
      return { container: { kind: "project", id: project.id }, location: ownRepository(project), locate: ownRepository, mayWrite: level >= AccessLevel.developer && !project.archived, protection };
    }
    case "wiki": {
      // A path names either a project or a group, never both (they share one namespace of paths).
      const access = await wikiAccess("project", principal, address.path).catch((err: unknown) => {
        if (err instanceof ApiError && err.status === 404) return wikiAccess("group", principal, address.path);
        throw err;
      });
      const { wiki, mayWrite } = access;
      const locate = wiki.owner === "project" ? projectWikiLocation : ownRepository;
      return { container: { kind: wiki.owner, id: wiki.id }, location: wiki.location, locate, mayWrite };
    }
    case "snippet": {
      const { snippet, mayWrite } = await visibleSnippet(principal, address.id);
      return { container: { kind: "snippet", id: snippet.id }, location: ownRepository(snippet), locate: ownRepository, mayWrite };
    }
    case "project-snippet": {
      const { snippet, mayWrite } = await visibleProjectSnippet(principal, address.projectPath, address.id);
      return { container: { kind: "snippet", id: snippet.id }, location: ownRepository(snippet), locate: ownRepository, mayWrite };
    }
  }
}

/** GitLab's token scopes for git: `read_repository` fetches, `write_repository` pushes (and fetches), `api` both. */
const SCOPES_FOR: Record<GitService, readonly string[]> = {
  "git-upload-pack": ["api", "read_repository", "write_repository"],
  "git-receive-pack": ["api", "write_repository"],
};

export const tokenAllows = (principal: Principal, service: GitService) => principal.scopes.some((s) => SCOPES_FOR[service].includes(s));

/** Whether a token can be used for git at all (a `read_user` token cannot authenticate git). */
export const tokenUsableForGit = (principal: Principal) => tokenAllows(principal, "git-upload-pack");
