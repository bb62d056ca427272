import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { pageQuery } from "../../platform/http/params.js";
import { pageRequest, setPageHeaders } from "../../platform/http/pagination.js";
import { commitNotePage } from "../domain/commit-notes.js";
import { commitParams } from "./commit-schemas.js";
import { commitOfProject, discussionView } from "./commit-note-views.js";

/** GitLab's "Get the discussions of a commit": its comments, each a discussion of one note, oldest first. */
export const endpoint = defineEndpoint(
  { summary: "Discussions of a commit", access: "public", params: commitParams, query: z.object({ ...pageQuery }) },
  async ({ c, principal, params, query }) => {
    const { project, commit } = await commitOfProject(principal, params.id, params.sha);
    const page = pageRequest(query);
    const found = await commitNotePage(project.id, commit.id, page.offset, page.perPage);
    setPageHeaders(c, page, found.hasMore, found.total);
    return found.notes.map((n) => discussionView(c, n));
  },
);
export const handler = lambda(endpoint);
