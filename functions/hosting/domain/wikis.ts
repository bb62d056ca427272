/**
 * Group wikis: pages stored as `<slug>.<ext>` on branch `main` of the group's wiki repository. The
 * repository is created by the first page (GitLab creates wiki repositories lazily too), so a group
 * item carries no `storage` until then and its wiki simply lists no pages.
 */
import { posix } from "node:path";
import { isConditionFailure, updateItem } from "../../platform/db/table.js";
import { ApiError, badRequest, notFound, paramError } from "../../platform/http/errors.js";
import { pickStorage } from "../../identity/domain/settings.js";
import { commitActions, hashedRelativePath, initRepository, listTree, readFile } from "./git/index.js";
import { findGroup, type Group } from "./groups.js";
import { containerKey, storageIndexKeys } from "./keys.js";
import { readRepository } from "./read-path.js";
import { withRepositoryWrite, type RepositoryLocation } from "./write-path.js";

export const WIKI_BRANCH = "main";
export const WIKI_FORMATS = { markdown: "md", rdoc: "rdoc", asciidoc: "asciidoc", org: "org" } as const;
export type WikiFormat = keyof typeof WIKI_FORMATS;
const FORMATS = Object.keys(WIKI_FORMATS) as WikiFormat[];

export interface WikiPage {
  slug: string;
  title: string;
  format: WikiFormat;
  content?: string;
}

type Author = { name: string; email: string };

/** GitLab's rule: the slug is the title with spaces turned into `-` (slashes make folders). */
export function slugOf(title: string): string {
  const slug = title.trim().replace(/ /g, "-");
  // An empty folder or file name would store a hidden `.md` file that no slug can reach.
  if (slug.split("/").some((part) => part === "")) throw paramError("title is invalid");
  return slug;
}
/** GitLab's page title: the file name without folder and extension, `-` shown as spaces. */
export const titleOf = (slug: string) => posix.basename(slug).replace(/-/g, " ");
const fileOf = (slug: string, format: WikiFormat) => `${slug}.${WIKI_FORMATS[format]}`;
const duplicate = () => new ApiError(400, { message: "Duplicate page: A page with that title already exists" });

/** The wiki repository of a group, if the group exists; `location` is absent before the first page. */
export async function findGroupWiki(groupId: number): Promise<{ group: Group; location?: RepositoryLocation; readOnly: boolean } | undefined> {
  const group = await findGroup(groupId);
  if (!group) return undefined;
  return { group, location: wikiLocation(group), readOnly: group.readOnly ?? false };
}

const wikiLocation = (g: Group): RepositoryLocation | undefined =>
  g.storage && g.relativePath ? { storage: g.storage, relativePath: g.relativePath } : undefined;

function parseFile(path: string): { slug: string; format: WikiFormat } | undefined {
  const format = FORMATS.find((f) => path.endsWith(`.${WIKI_FORMATS[f]}`));
  return format ? { slug: path.slice(0, -WIKI_FORMATS[format].length - 1), format } : undefined;
}

async function locate(loc: RepositoryLocation, slug: string): Promise<{ format: WikiFormat; content: string } | undefined> {
  for (const format of FORMATS) {
    const bytes = await readFile(loc.storage, loc.relativePath, { ref: WIKI_BRANCH, filePath: fileOf(slug, format) });
    if (bytes) return { format, content: bytes.toString("utf8") };
  }
  return undefined;
}

function readWiki<T>(group: Group, empty: T, read: (loc: RepositoryLocation) => Promise<T>): Promise<T> {
  const loc = wikiLocation(group);
  return loc ? readRepository("group", group.id, loc, read) : Promise.resolve(empty);
}

export function listPages(group: Group, withContent: boolean): Promise<WikiPage[]> {
  return readWiki(group, [], async (loc) => {
    const tree = (await listTree(loc.storage, loc.relativePath, { ref: WIKI_BRANCH, recursive: true })) ?? [];
    const files = tree.filter((t) => t.type === "blob").flatMap((t) => {
      const parsed = parseFile(t.path);
      return parsed ? [{ ...parsed, path: t.path }] : [];
    });
    files.sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
    return Promise.all(
      files.map(async ({ slug, format, path }) => {
        const page: WikiPage = { format, slug, title: titleOf(slug) };
        if (withContent) page.content = (await readFile(loc.storage, loc.relativePath, { ref: WIKI_BRANCH, filePath: path }))?.toString("utf8") ?? "";
        return page;
      }),
    );
  });
}

export async function getPage(group: Group, slug: string): Promise<WikiPage> {
  const found = await readWiki(group, undefined, (loc) => locate(loc, slug));
  if (!found) throw notFound("Wiki Page");
  return { ...found, slug, title: titleOf(slug) };
}

/**
 * Runs under the group's write lease. Without a wiki repository yet, `create` decides: the first
 * page makes one; updates and deletes have nothing to change (404).
 */
function writeWiki<T>(groupId: number, create: boolean, write: (loc: RepositoryLocation) => Promise<T>): Promise<T> {
  return withRepositoryWrite(
    "group",
    groupId,
    async (location) => {
      if (location) return write(location);
      if (!create) throw notFound("Wiki Page");
      return write(await createWikiRepository(groupId));
    },
    { requireRepository: false },
  );
}

/**
 * Picks a storage by weight, initialises the repository, then records it on the group item — only if
 * none is recorded yet. We hold the write lease, so the condition only fails if the group vanished or
 * someone bypassed the lease; an unrecorded empty repository left behind then is harmless.
 */
async function createWikiRepository(groupId: number): Promise<RepositoryLocation> {
  const storage = await pickStorage();
  if (!storage) throw badRequest("no repository storage is available for new wikis");
  const relativePath = hashedRelativePath("group-wiki", groupId);
  await initRepository(storage, relativePath, { defaultBranch: WIKI_BRANCH });
  const index = storageIndexKeys("group", storage, groupId);
  try {
    await updateItem({
      ...containerKey("group", groupId),
      update: "SET #storage = :s, relativePath = :p, readOnly = :f, gsi2pk = :g2pk, gsi2sk = :g2sk",
      condition: "attribute_exists(pk) AND attribute_not_exists(#storage)",
      names: { "#storage": "storage" },
      values: { ":s": storage, ":p": relativePath, ":f": false, ":g2pk": index.gsi2pk, ":g2sk": index.gsi2sk },
    });
    return { storage, relativePath };
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    const current = (await findGroupWiki(groupId))?.location;
    if (!current) throw notFound("Group");
    return current;
  }
}

export async function createPage(groupId: number, author: Author, input: { title: string; content: string; format: WikiFormat }): Promise<WikiPage> {
  const slug = slugOf(input.title);
  return writeWiki(groupId, true, async (loc) => {
    if (await locate(loc, slug)) throw duplicate();
    await commitActions(loc.storage, loc.relativePath, {
      branch: WIKI_BRANCH,
      message: `Create ${titleOf(slug)}`,
      author,
      actions: [{ action: "create", file_path: fileOf(slug, input.format), content: input.content }],
    });
    return { content: input.content, format: input.format, slug, title: titleOf(slug) };
  });
}

/** A new title renames (moves) the file, a new format changes its extension; both keep history. */
export async function updatePage(groupId: number, author: Author, slug: string, changes: { title?: string; content?: string; format?: WikiFormat }): Promise<WikiPage> {
  return writeWiki(groupId, false, async (loc) => {
    const existing = await locate(loc, slug);
    if (!existing) throw notFound("Wiki Page");
    const nextSlug = changes.title !== undefined ? slugOf(changes.title) : slug;
    const format = changes.format ?? existing.format;
    const content = changes.content ?? existing.content;
    if (nextSlug !== slug && (await locate(loc, nextSlug))) throw duplicate();
    const from = fileOf(slug, existing.format);
    const to = fileOf(nextSlug, format);
    await commitActions(loc.storage, loc.relativePath, {
      branch: WIKI_BRANCH,
      message: `Update ${titleOf(nextSlug)}`,
      author,
      actions: [from === to ? { action: "update", file_path: to, content } : { action: "move", previous_path: from, file_path: to, content }],
    });
    return { content, format, slug: nextSlug, title: titleOf(nextSlug) };
  });
}

export async function deletePage(groupId: number, author: Author, slug: string): Promise<void> {
  await writeWiki(groupId, false, async (loc) => {
    const existing = await locate(loc, slug);
    if (!existing) throw notFound("Wiki Page");
    await commitActions(loc.storage, loc.relativePath, {
      branch: WIKI_BRANCH,
      message: `Delete ${titleOf(slug)}`,
      author,
      actions: [{ action: "delete", file_path: fileOf(slug, existing.format) }],
    });
  });
}
