/**
 * The wiki endpoints, once, for either owner kind: `/groups/:id/wikis…` and
 * `/projects/:id/wikis…` are the same API over a different wiki repository (`domain/wikis.ts`).
 * Each route module instantiates one of them for its owner; reading one page is in
 * `wiki-page-read.ts`, the one that renders Markdown.
 */
import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { paramError } from "../../platform/http/errors.js";
import { bool } from "../../platform/http/params.js";
import { createPage, deletePage, listPages, updatePage, type WikiOwnerKind } from "../domain/wikis.js";
import { authorOf, pageView, readableWiki, wikiFormat, wikiPageParams, wikiParams, wikiTitle, writableWiki } from "./wiki-common.js";

/** Every page (none before the first exists); `with_content` adds bodies, as GitLab's full page entity. */
export const listWikiPages = (owner: WikiOwnerKind) =>
  defineEndpoint(
    { summary: `List ${owner} wiki pages`, access: "public", params: wikiParams, query: z.object({ with_content: z.optional(bool()) }) },
    async ({ principal, params, query }) => {
      const pages = await listPages(await readableWiki(owner, principal, params.id), query.with_content ?? false);
      // With content, each page is GitLab's full page entity (its `encoding` too); without, the short one.
      return query.with_content ? pages.map(pageView) : pages;
    },
  );

/** Developer+. The first page creates the wiki repository (see `domain/wikis.ts` for where). */
export const createWikiPage = (owner: WikiOwnerKind) =>
  defineEndpoint(
    {
      summary: `Create a ${owner} wiki page`,
      access: "write",
      status: 201,
      params: wikiParams,
      body: z.object({ title: wikiTitle, content: z.string(), format: z.optional(wikiFormat) }),
    },
    async ({ principal, params, body }) => {
      const wiki = await writableWiki(owner, principal, params.id);
      return pageView(await createPage(wiki, authorOf(principal), { title: body.title, content: body.content, format: body.format ?? "markdown" }));
    },
  );

/** Developer+. A new title renames the page (and its slug), as on GitLab. */
export const updateWikiPage = (owner: WikiOwnerKind) =>
  defineEndpoint(
    {
      summary: `Update a ${owner} wiki page`,
      access: "write",
      params: wikiPageParams,
      body: z.object({ title: z.optional(wikiTitle), content: z.optional(z.string()), format: z.optional(wikiFormat) }),
    },
    async ({ principal, params, body }) => {
      if (body.title === undefined && body.content === undefined && body.format === undefined) {
        throw paramError("content, title, format are missing, at least one parameter must be provided");
      }
      const wiki = await writableWiki(owner, principal, params.id);
      return pageView(await updatePage(wiki, authorOf(principal), params.slug, body));
    },
  );

/** Developer+; 204 as GitLab. The page's history stays in the wiki repository. */
export const deleteWikiPage = (owner: WikiOwnerKind) =>
  defineEndpoint({ summary: `Delete a ${owner} wiki page`, access: "write", params: wikiPageParams }, async ({ c, principal, params }) => {
    await deletePage(await writableWiki(owner, principal, params.id), authorOf(principal), params.slug);
    return c.body(null, 204);
  });
