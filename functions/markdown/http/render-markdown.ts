import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { bool } from "../../platform/http/params.js";
import { visibleProject } from "../../hosting/domain/projects.js";

/**
 * GitLab's `POST /markdown`: `text` as sanitized HTML, `{"html": …}`, 201. Signed-in callers only
 * (GitLab's default, `authenticate_markdown_api`), a `read_api` token is enough. `project` (a full
 * path) is the context GitLab resolves references in: one the caller cannot see is `404 Project Not
 * Found`. `gfm` is accepted; both ways render GitHub Flavored Markdown, as GitLab's Markdown filter
 * does, since the GitLab-only parts of GLFM (references to issues and merge requests, emoji) have no
 * source here.
 */
export const endpoint = defineEndpoint(
  {
    summary: "Render an arbitrary Markdown document",
    access: "read",
    status: 201,
    body: z.object({ text: z.string().check(z.maxLength(1_000_000)), gfm: z.optional(bool()), project: z.optional(z.string().check(z.minLength(1), z.maxLength(512))) }),
  },
  async ({ principal, body }) => {
    if (body.project !== undefined) await visibleProject(principal, body.project);
    // Loaded once a request is accepted: a refused one, and the cold start, need not pay for the renderer.
    const { renderMarkdown } = await import("../../platform/markdown.js");
    return { html: renderMarkdown(body.text) };
  },
);
export const handler = lambda(endpoint);
