/** Shared by the group wiki routes: parameters, who may read or write, and the page entity. */
import * as z from "zod/mini";
import { idOrPath } from "../../platform/http/params.js";
import { forbidden } from "../../platform/http/errors.js";
import type { Principal } from "../../identity/domain/auth.js";
import { AccessLevel } from "../domain/access.js";
import { visibleGroup } from "../domain/groups.js";
import { WIKI_FORMATS, type WikiFormat, type WikiPage } from "../domain/wikis.js";

export const wikiParams = z.object({ id: idOrPath() });
/** `slug` is URL-encoded when the page sits in a folder (`docs%2FSetup-Guide`). */
export const wikiPageParams = z.object({ id: idOrPath(), slug: z.string().check(z.minLength(1), z.maxLength(1024)) });
export const wikiFormat = z.enum(Object.keys(WIKI_FORMATS) as [WikiFormat, ...WikiFormat[]]);
/** Titles become file paths; surrounding blanks would only make slugs that differ invisibly. */
export const wikiTitle = z.string().check(z.trim(), z.minLength(1), z.maxLength(255));

/** Reading follows the group's visibility (Guest+ for a private group); hidden groups answer 404. */
export async function readableWikiGroup(principal: Principal | undefined, id: string) {
  return (await visibleGroup(principal, id)).group;
}

/** Developer+ edits pages (GitLab's `create_wiki`); a member below that gets 403. */
export async function writableWikiGroup(principal: Principal, id: string) {
  const { group, level } = await visibleGroup(principal, id);
  if (level < AccessLevel.developer) throw forbidden();
  return group;
}

export const authorOf = (principal: Principal) => ({ name: principal.user.name, email: principal.user.email });

export const pageView = (page: WikiPage) => ({ content: page.content ?? "", format: page.format, slug: page.slug, title: page.title, encoding: "UTF-8" });
