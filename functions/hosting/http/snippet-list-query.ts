/** What the instance-wide snippet lists take, and how a page of them is answered (`/snippets/public`, `/snippets/all`). */
import type { Context } from "hono";
import * as z from "zod/mini";
import type { Principal } from "../../identity/domain/auth.js";
import type { User } from "../../identity/domain/users.js";
import { dateTime, dateTimeToIso, pageQuery } from "../../platform/http/params.js";
import { setPageHeaders, type PageRequest } from "../../platform/http/pagination.js";
import type { CreatedRange, SnippetPage } from "../domain/snippet-lists.js";
import { renderSnippet } from "./snippet-common.js";

export const snippetListQuery = {
  ...pageQuery,
  created_after: z.optional(dateTime()),
  created_before: z.optional(dateTime()),
};

export const createdRange = (q: { created_after?: string; created_before?: string }): CreatedRange => ({ after: dateTimeToIso(q.created_after), before: dateTimeToIso(q.created_before) });

/** The page's snippets, each author read once: `PersonalSnippet`, or `ProjectSnippet` under its project. */
export function answerSnippetPage(c: Context, principal: Principal, page: PageRequest, listed: SnippetPage) {
  setPageHeaders(c, page, listed.hasMore, undefined, listed.snippets.length);
  const authors = new Map<number, Promise<User | undefined>>([[principal.user.id, Promise.resolve(principal.user)]]);
  return Promise.all(listed.snippets.map(({ snippet, project }) => renderSnippet(c, principal, snippet, authors, project)));
}
