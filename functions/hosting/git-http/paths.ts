/**
 * GitLab's Git-over-HTTP URLs, read into which repository and which smart-protocol step they ask for:
 *
 *   /<namespace>/<project>.git/…             the project's repository
 *   /<namespace>/<project>.wiki.git/…        the project's wiki (or, for a group path, the group's wiki)
 *   /snippets/<id>.git/…                     a personal snippet
 *   /<namespace>/<project>/snippets/<id>.git/…  a project snippet
 *
 * each followed by `info/refs` (the advertisement), `git-upload-pack` or `git-receive-pack`.
 */
export type GitService = "git-upload-pack" | "git-receive-pack";
export type GitStep = "info/refs" | GitService;

export type RepositoryAddress =
  | { kind: "project"; path: string }
  | { kind: "wiki"; path: string }
  | { kind: "snippet"; id: number }
  | { kind: "project-snippet"; projectPath: string; id: number };

export interface GitRequestPath {
  repository: RepositoryAddress;
  step: GitStep;
}

const GIT_PATH = /^\/(.+?)\.git\/(info\/refs|git-upload-pack|git-receive-pack)$/;
/** GitLab's path segments: letters, digits, `_`, `-`, `.`; never only dots. */
const SEGMENT = /^(?!\.+$)[A-Za-z0-9_.-]{1,255}$/;
const isNamespacePath = (path: string) => path.split("/").every((s) => SEGMENT.test(s));

export function parseGitPath(pathname: string): GitRequestPath | undefined {
  const match = GIT_PATH.exec(pathname);
  if (!match) return undefined;
  const repository = parseRepository(match[1]!);
  return repository && { repository, step: match[2] as GitStep };
}

function parseRepository(raw: string): RepositoryAddress | undefined {
  const personal = /^snippets\/([1-9]\d{0,15})$/.exec(raw);
  if (personal) return { kind: "snippet", id: Number(personal[1]) };
  const ofProject = /^(.+)\/snippets\/([1-9]\d{0,15})$/.exec(raw);
  if (ofProject && isNamespacePath(ofProject[1]!)) return { kind: "project-snippet", projectPath: ofProject[1]!, id: Number(ofProject[2]) };
  if (!isNamespacePath(raw)) return undefined;
  // A top-level group's wiki (`/<group>.wiki.git`) is the only repository one segment deep.
  if (raw.endsWith(".wiki")) return { kind: "wiki", path: raw.slice(0, -".wiki".length) };
  return raw.includes("/") ? { kind: "project", path: raw } : undefined;
}

/**
 * `/<namespace>/<project>/info/refs` (a clone URL typed without `.git`): GitLab answers with a
 * redirect to the `.git` URL, which git follows for this first request. Undefined when it is not one.
 */
export function gitRedirectTarget(pathname: string, search: string): string | undefined {
  const match = /^\/(.+)\/info\/refs$/.exec(pathname);
  if (!match || match[1]!.endsWith(".git") || !match[1]!.includes("/") || !isNamespacePath(match[1]!)) return undefined;
  return `/${match[1]}.git/info/refs${search}`;
}
