/** GitLab's snippet entities (`BasicSnippet`, `PersonalSnippet`) as this service fills them. */
import { basicUser, type User } from "../../identity/domain/users.js";
import type { Snippet } from "./snippets.js";
import { gitBaseUrl } from "./git-url.js";

/** Where a snippet lives on the web: `/-/snippets/:id`, under its project's path for a project snippet. */
const webUrlOf = (snippet: Pick<Snippet, "id">, baseUrl: string, projectPath?: string) =>
  `${baseUrl}${projectPath ? `/${projectPath}` : ""}/-/snippets/${snippet.id}`;

/**
 * `BasicSnippet`: what a snippet storage move record nests as `snippet`. `projectPath` is the full
 * path of a project snippet's project (its URLs are under it); a move record leaves it out.
 */
export function basicSnippetView(snippet: Snippet, baseUrl: string, projectPath?: string) {
  const webUrl = webUrlOf(snippet, baseUrl, projectPath);
  const host = new URL(baseUrl).hostname;
  const repoPath = `${projectPath ? `${projectPath}/` : ""}snippets/${snippet.id}`;
  return {
    id: snippet.id,
    title: snippet.title,
    description: snippet.description || null,
    visibility: snippet.visibility,
    updated_at: snippet.updatedAt,
    created_at: snippet.createdAt,
    project_id: snippet.projectId ?? null,
    web_url: webUrl,
    raw_url: `${webUrl}/raw`,
    ssh_url_to_repo: `git@${host}:${repoPath}.git`,
    http_url_to_repo: `${gitBaseUrl(baseUrl)}/${repoPath}.git`,
  };
}

/** Raw URL of one file at `main`, as GitLab links it (`/-/snippets/:id/raw/:ref/:path`). */
export const snippetFileRawUrl = (snippet: Pick<Snippet, "id">, baseUrl: string, path: string, projectPath?: string) =>
  `${webUrlOf(snippet, baseUrl, projectPath)}/raw/main/${path.split("/").map(encodeURIComponent).join("/")}`;

/** `PersonalSnippet`, or `ProjectSnippet` when `opts.projectPath` is given. */
export function snippetView(snippet: Snippet, author: User | undefined, files: string[], baseUrl: string, opts: { admin: boolean; projectPath?: string }) {
  return {
    ...basicSnippetView(snippet, baseUrl, opts.projectPath),
    author: author ? basicUser(author, baseUrl) : null,
    // Snippets here never expire; GitLab sends the key with null for those.
    expires_at: null,
    file_name: files[0] ?? null,
    files: files.map((path) => ({ path, raw_url: snippetFileRawUrl(snippet, baseUrl, path, opts.projectPath) })),
    // Admin-only in GitLab: it reveals the instance's storage layout.
    ...(opts.admin ? { repository_storage: snippet.storage } : {}),
  };
}
