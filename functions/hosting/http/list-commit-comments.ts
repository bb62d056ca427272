import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { pageQuery } from "../../platform/http/params.js";
import { pageRequest, setPageHeaders } from "../../platform/http/pagination.js";
import { commitNotePage } from "../domain/commit-notes.js";
import { commitParams } from "./commit-schemas.js";
import { commitNoteView, commitOfProject } from "./commit-note-views.js";

/** GitLab's "Get the comments of a commit": oldest first, paginated; `sha` may be a branch or a tag. */
export const endpoint = defineEndpoint(
  { summary: "Comments of a commit", access: "public", params: commitParams, query: z.object({ ...pageQuery }) },
  async ({ c, principal, params, query }) => {
    const { project, commit } = await commitOfProject(principal, params.id, params.sha);
    const page = pageRequest(query);
    const found = await commitNotePage(project.id, commit.id, page.offset, page.perPage);
    setPageHeaders(c, page, found.hasMore, found.total);
    return found.notes.map((n) => commitNoteView(c, n));
  },
);
export const handler = lambda(endpoint);
