/** Shared by the snippet routes: path parameters and the rendered entity. */
import type { Context } from "hono";
import * as z from "zod/mini";
import { positiveInt } from "../../platform/http/params.js";
import { baseUrl } from "../../platform/http/urls.js";
import type { Principal } from "../../identity/domain/auth.js";
import { findUser, type User } from "../../identity/domain/users.js";
import { snippetFiles, type Snippet } from "../domain/snippets.js";
import { snippetView } from "../domain/snippet-view.js";

export const snippetParams = z.object({ id: positiveInt() });

/** `PersonalSnippet` entity; `authors` lets a list fetch each author once. */
export async function renderSnippet(c: Context, principal: Principal | undefined, snippet: Snippet, authors?: Map<number, Promise<User | undefined>>) {
  const author = authors?.get(snippet.authorId) ?? findUser(snippet.authorId);
  authors?.set(snippet.authorId, author);
  const [user, files] = await Promise.all([author, snippetFiles(snippet)]);
  return snippetView(snippet, user, files, baseUrl(c), { admin: principal?.user.admin ?? false });
}

/** Snippet files are served as plain text, never rendered by the browser (GitLab does the same). */
export function rawText(c: Context, content: Buffer): Response {
  c.header("Content-Type", "text/plain; charset=utf-8");
  c.header("X-Content-Type-Options", "nosniff");
  return c.body(new Uint8Array(content), 200);
}
