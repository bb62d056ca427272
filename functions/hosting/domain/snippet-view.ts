/** GitLab's snippet entities (`BasicSnippet`, `PersonalSnippet`) as this service fills them. */
import { basicUser, type User } from "../../identity/domain/users.js";
import type { Snippet } from "./snippets.js";

const webUrlOf = (snippet: Pick<Snippet, "id">, baseUrl: string) => `${baseUrl}/-/snippets/${snippet.id}`;

/** `BasicSnippet`: what a snippet storage move record nests as `snippet`. */
export function basicSnippetView(snippet: Snippet, baseUrl: string) {
  const webUrl = webUrlOf(snippet, baseUrl);
  const host = new URL(baseUrl).hostname;
  return {
    id: snippet.id,
    title: snippet.title,
    description: snippet.description || null,
    visibility: snippet.visibility,
    updated_at: snippet.updatedAt,
    created_at: snippet.createdAt,
    // Personal snippets only: project snippets are not offered by this service.
    project_id: null,
    web_url: webUrl,
    raw_url: `${webUrl}/raw`,
    ssh_url_to_repo: `git@${host}:snippets/${snippet.id}.git`,
    http_url_to_repo: `${baseUrl}/snippets/${snippet.id}.git`,
  };
}

/** Raw URL of one file at `main`, as GitLab links it (`/-/snippets/:id/raw/:ref/:path`). */
export const snippetFileRawUrl = (snippet: Pick<Snippet, "id">, baseUrl: string, path: string) =>
  `${webUrlOf(snippet, baseUrl)}/raw/main/${path.split("/").map(encodeURIComponent).join("/")}`;

export function snippetView(snippet: Snippet, author: User | undefined, files: string[], baseUrl: string, opts: { admin: boolean }) {
  return {
    ...basicSnippetView(snippet, baseUrl),
    author: author ? basicUser(author, baseUrl) : null,
    // Snippets here never expire; GitLab sends the key with null for those.
    expires_at: null,
    file_name: files[0] ?? null,
    files: files.map((path) => ({ path, raw_url: snippetFileRawUrl(snippet, baseUrl, path) })),
    // Admin-only in GitLab: it reveals the instance's storage layout.
    ...(opts.admin ? { repository_storage: snippet.storage } : {}),
  };
}
