/** Shared by the snippet routes: path parameters and the rendered entity. */
import type { Context } from "hono";
import * as z from "zod/mini";
import { idOrPath, positiveInt } from "../../platform/http/params.js";
import { notFound, paramError } from "../../platform/http/errors.js";
import { visibility } from "./schemas.js";
import { baseUrl } from "../../platform/http/urls.js";
import type { Principal } from "../../identity/domain/auth.js";
import { findUser, type User } from "../../identity/domain/users.js";
import { fullPathOf, type Project } from "../domain/projects.js";
import { snippetFiles, type Snippet, type SnippetFileAction } from "../domain/snippets.js";
import { snippetView } from "../domain/snippet-view.js";

export const snippetParams = z.object({ id: positiveInt() });
export const projectSnippetParams = z.object({ id: idOrPath(), snippet_id: positiveInt() });

const file = z.object({ file_path: z.string().check(z.minLength(1), z.maxLength(4096)), content: z.string() });

/**
 * A new snippet, personal or project. `files` is the current form; the legacy `file_name` +
 * `content` pair (one file) is still accepted, as on GitLab, but not together with `files`.
 */
export const newSnippetBody = z.object({
  title: z.string().check(z.minLength(1), z.maxLength(255)),
  description: z.optional(z.string().check(z.maxLength(100_000))),
  visibility: z.optional(visibility),
  files: z.optional(z.array(file).check(z.minLength(1), z.maxLength(100))),
  file_name: z.optional(z.string().check(z.minLength(1), z.maxLength(4096))),
  content: z.optional(z.string()),
});

/** The files of a new snippet, from either form; GitLab's parameter errors for mixing or missing them. */
export function newSnippetFiles(body: z.infer<typeof newSnippetBody>): Array<{ file_path: string; content: string }> {
  if (body.files && body.content !== undefined) throw paramError("content, files are mutually exclusive");
  if (!body.files && body.content === undefined) throw paramError("content, files are missing, exactly one parameter must be provided");
  if (body.content !== undefined && !body.file_name) throw paramError("file_name is missing");
  return body.files ?? [{ file_path: body.file_name!, content: body.content! }];
}

const action = z.object({
  action: z.enum(["create", "update", "delete", "move"]),
  file_path: z.string().check(z.minLength(1), z.maxLength(4096)),
  previous_path: z.optional(z.string().check(z.minLength(1), z.maxLength(4096))),
  content: z.optional(z.string()),
});

/** A snippet update: metadata, and file actions that become one commit on `main`. */
export const snippetChangesBody = z.object({
  title: z.optional(z.string().check(z.minLength(1), z.maxLength(255))),
  description: z.optional(z.string().check(z.maxLength(100_000))),
  visibility: z.optional(visibility),
  files: z.optional(z.array(action).check(z.minLength(1), z.maxLength(100))),
});

/** Nothing to change is GitLab's parameter error. */
export function requireSomeChange(body: z.infer<typeof snippetChangesBody>, extra: string[] = []): void {
  if (Object.values(body).every((v) => v === undefined)) {
    throw paramError(`${["title", "description", "visibility", "files", ...extra].join(", ")} are missing, at least one parameter must be provided`);
  }
}

export type { SnippetFileAction };

/** `PersonalSnippet` entity, or `ProjectSnippet` given its project (URLs under the project's path); `authors` lets a list fetch each author once. */
export async function renderSnippet(c: Context, principal: Principal | undefined, snippet: Snippet, authors?: Map<number, Promise<User | undefined>>, project?: Project) {
  const author = authors?.get(snippet.authorId) ?? findUser(snippet.authorId);
  authors?.set(snippet.authorId, author);
  const [user, files] = await Promise.all([author, snippetFiles(snippet)]);
  return snippetView(snippet, user, files, baseUrl(c), { admin: principal?.user.admin ?? false, projectPath: project && fullPathOf(project) });
}

export const renderProjectSnippet = (c: Context, principal: Principal | undefined, project: Project, snippet: Snippet, authors?: Map<number, Promise<User | undefined>>) =>
  renderSnippet(c, principal, snippet, authors, project);

/** GitLab's `UserAgentDetail` entity; 404 for a snippet created before it was recorded. */
export function userAgentDetail(snippet: Snippet) {
  if (!snippet.createdFrom) throw notFound("UserAgentDetail");
  return { user_agent: snippet.createdFrom.userAgent, ip_address: snippet.createdFrom.ipAddress, akismet_submitted: false };
}
