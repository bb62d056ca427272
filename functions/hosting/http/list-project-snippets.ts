import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { pageQuery } from "../../platform/http/params.js";
import { pageRequest, setPageHeaders } from "../../platform/http/pagination.js";
import type { User } from "../../identity/domain/users.js";
import { listVisibleProjectSnippets, projectForSnippets } from "../domain/project-snippets.js";
import { renderProjectSnippet } from "./snippet-common.js";
import { projectParams } from "./schemas.js";

/** GitLab's `GET /projects/:id/snippets`: the project's snippets the caller may see, newest first. */
export const endpoint = defineEndpoint(
  { summary: "List a project's snippets", access: "public", params: projectParams, query: z.object({ ...pageQuery }) },
  async ({ c, principal, params, query }) => {
    const access = await projectForSnippets(principal, params.id);
    const page = pageRequest(query);
    const { snippets, hasMore } = await listVisibleProjectSnippets(principal, access, page.offset, page.perPage);
    setPageHeaders(c, page, hasMore, undefined, snippets.length);
    const authors = new Map<number, Promise<User | undefined>>();
    return Promise.all(snippets.map((s) => renderProjectSnippet(c, principal, access.project, s, authors)));
  },
);
export const handler = lambda(endpoint);
