/**
 * Reading one wiki page, for either owner kind (`wiki-endpoints.ts` has the others): its own module
 * because only it renders Markdown, so only its functions bundle the renderer.
 */
import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { bool } from "../../platform/http/params.js";
import { getPage, type WikiOwnerKind } from "../domain/wikis.js";
import { pageView, readableWiki, wikiPageParams } from "./wiki-common.js";

/**
 * One page; `version` (a commit id) reads it as it was then. `render_html=true` answers the content
 * as HTML, as GitLab does: Markdown rendered and sanitized (`platform/markdown.ts`); a page in another
 * format (rdoc, AsciiDoc, Org), which this service has no renderer for, as its escaped text in `<pre>`.
 */
export const getWikiPage = (owner: WikiOwnerKind) =>
  defineEndpoint(
    {
      summary: `One ${owner} wiki page`,
      access: "public",
      params: wikiPageParams,
      query: z.object({ version: z.optional(z.string().check(z.regex(/^[0-9a-fA-F]{4,64}$/))), render_html: z.optional(bool()) }),
    },
    async ({ principal, params, query }) => {
      const wiki = await readableWiki(owner, principal, params.id);
      const view = pageView(await getPage(wiki, params.slug, query.version?.toLowerCase()));
      if (!query.render_html) return view;
      // Loaded when a page is rendered: most reads are of the source, and a cold start need not pay for the renderer.
      const { renderWikiContent } = await import("../../platform/markdown.js");
      return { ...view, content: renderWikiContent(view.format, view.content) };
    },
  );
