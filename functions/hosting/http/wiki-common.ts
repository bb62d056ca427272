/**
 * Shared by the wiki routes of groups and projects: parameters, who may read or write whose wiki,
 * and the page entity. Each route module serves one owner kind through the same endpoint factory.
 */
import * as z from "zod/mini";
import { idOrPath } from "../../platform/http/params.js";
import { forbidden } from "../../platform/http/errors.js";
import type { Principal } from "../../identity/domain/auth.js";
import { AccessLevel } from "../domain/access.js";
import { visibleGroup } from "../domain/groups.js";
import { visibleProject } from "../domain/projects.js";
import { groupWiki, projectWiki, WIKI_FORMATS, type Wiki, type WikiFormat, type WikiOwnerKind, type WikiPage } from "../domain/wikis.js";

export const wikiParams = z.object({ id: idOrPath() });
/** `slug` is URL-encoded when the page sits in a folder (`docs%2FSetup-Guide`). */
export const wikiPageParams = z.object({ id: idOrPath(), slug: z.string().check(z.minLength(1), z.maxLength(1024)) });
export const wikiFormat = z.enum(Object.keys(WIKI_FORMATS) as [WikiFormat, ...WikiFormat[]]);
/** Titles become file paths; surrounding blanks would only make slugs that differ invisibly. */
export const wikiTitle = z.string().check(z.trim(), z.minLength(1), z.maxLength(255));

export interface WikiAccess {
  wiki: Wiki;
  /** Whether the caller may edit pages (GitLab's `create_wiki`). */
  mayWrite: boolean;
}

/**
 * GitLab's `read_wiki` / `create_wiki`:
 * - group: the group's visibility (Guest+ for a private group; hidden groups answer 404), Developer+ writes;
 * - project: the project's visibility (404 when hidden), then its wiki feature (`wiki_access_level`
 *   `disabled`, or `private` for a non-member: 403); Developer+ writes, not in an archived project.
 */
export async function wikiAccess(owner: WikiOwnerKind, principal: Principal | undefined, id: string): Promise<WikiAccess> {
  if (owner === "group") {
    const { group, level } = await visibleGroup(principal, id);
    return { wiki: groupWiki(group), mayWrite: level >= AccessLevel.developer };
  }
  const { project, level } = await visibleProject(principal, id);
  const feature = project.features.wiki_access_level;
  if (feature === "disabled" || (feature === "private" && level < AccessLevel.guest)) throw forbidden();
  return { wiki: projectWiki(project), mayWrite: level >= AccessLevel.developer && !project.archived };
}

export async function readableWiki(owner: WikiOwnerKind, principal: Principal | undefined, id: string): Promise<Wiki> {
  return (await wikiAccess(owner, principal, id)).wiki;
}

/** A visible wiki the caller may not edit answers 403. */
export async function writableWiki(owner: WikiOwnerKind, principal: Principal, id: string): Promise<Wiki> {
  const { wiki, mayWrite } = await wikiAccess(owner, principal, id);
  if (!mayWrite) throw forbidden();
  return wiki;
}

export const authorOf = (principal: Principal) => ({ name: principal.user.name, email: principal.user.email });

export const pageView = (page: WikiPage) => ({ content: page.content ?? "", format: page.format, slug: page.slug, title: page.title, encoding: "UTF-8" });
