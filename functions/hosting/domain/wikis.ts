/**
 * Wikis of groups and of projects: pages stored as `<slug>.<ext>` on branch `main` of the owner's
 * wiki repository. The repository is created by the first page (GitLab creates wiki repositories
 * lazily too), so until then the wiki simply lists no pages. The owners differ only in where that
 * repository lives (`WIKI_OWNERS`); everything about pages is shared.
 */
import { randomBytes } from "node:crypto";
import { posix } from "node:path";
import { isConditionFailure, updateItem } from "../../platform/db/table.js";
import { ApiError, badRequest, notFound, paramError } from "../../platform/http/errors.js";
import { pickStorage } from "../../identity/domain/settings.js";
import { commitActions, hashedRelativePath, initRepository, listTree, readFile } from "./git/index.js";
import { findGroup, type Group } from "./groups.js";
import type { Project } from "./projects.js";
import { projectWikiLocation } from "./project-wiki.js";
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

export type WikiOwnerKind = "group" | "project";

/** A wiki as the page operations see it: whose it is, and its repository once the first page exists. */
export interface Wiki {
  owner: WikiOwnerKind;
  id: number;
  location?: RepositoryLocation;
}

type ContainerItem = Partial<RepositoryLocation> & { wikiRepository?: boolean };

/**
 * Where each kind of owner keeps its wiki repository, and how the first page creates it.
 * - A group's wiki is the group's only repository: `storage` and `relativePath` on the group item,
 *   on a storage picked by weight, listed in the storage index (group storage moves move it).
 * - A project's wiki lives beside the project's repository on the same storage (`project-wiki.ts`);
 *   the project item only records that it exists, and project storage moves carry it along.
 */
const WIKI_OWNERS: Record<WikiOwnerKind, { locate: (item: ContainerItem) => RepositoryLocation | undefined; create: (id: number, item: ContainerItem) => Promise<RepositoryLocation> }> = {
  group: {
    locate: (g) => (g.storage && g.relativePath ? { storage: g.storage, relativePath: g.relativePath } : undefined),
    create: (id) => createGroupWikiRepository(id),
  },
  project: { locate: projectWikiLocation, create: createProjectWikiRepository },
};

export const groupWiki = (group: Group): Wiki => ({ owner: "group", id: group.id, location: WIKI_OWNERS.group.locate(group) });
export const projectWiki = (project: Project): Wiki => ({ owner: "project", id: project.id, location: projectWikiLocation(project) });

function parseFile(path: string): { slug: string; format: WikiFormat } | undefined {
  const format = FORMATS.find((f) => path.endsWith(`.${WIKI_FORMATS[f]}`));
  return format ? { slug: path.slice(0, -WIKI_FORMATS[format].length - 1), format } : undefined;
}

async function locate(loc: RepositoryLocation, slug: string, ref = WIKI_BRANCH): Promise<{ format: WikiFormat; content: string } | undefined> {
  for (const format of FORMATS) {
    const bytes = await readFile(loc.storage, loc.relativePath, { ref, filePath: fileOf(slug, format) });
    if (bytes) return { format, content: bytes.toString("utf8") };
  }
  return undefined;
}

function readWiki<T>(wiki: Wiki, empty: T, read: (loc: RepositoryLocation) => Promise<T>): Promise<T> {
  return wiki.location ? readRepository(wiki.owner, wiki.id, wiki.location, read, WIKI_OWNERS[wiki.owner].locate) : Promise.resolve(empty);
}

export function listPages(wiki: Wiki, withContent: boolean): Promise<WikiPage[]> {
  return readWiki(wiki, [], async (loc) => {
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

/** The page as it is, or as it was at commit `version` (an unknown version: 404, as GitLab). */
export async function getPage(wiki: Wiki, slug: string, version?: string): Promise<WikiPage> {
  const found = await readWiki(wiki, undefined, (loc) => locate(loc, slug, version));
  if (!found) throw notFound("Wiki Page");
  return { ...found, slug, title: titleOf(slug) };
}

/**
 * Runs under the owner's write lease (a project's wiki shares its project's: a storage move of the
 * project waits for, and then refuses, wiki writes as it does commits). Without a wiki repository
 * yet, `create` decides: the first page makes one; updates and deletes have nothing to change (404).
 */
function writeWiki<T>(wiki: Wiki, create: boolean, write: (loc: RepositoryLocation) => Promise<T>): Promise<T> {
  const owner = WIKI_OWNERS[wiki.owner];
  return withRepositoryWrite(
    wiki.owner,
    wiki.id,
    async (_, item) => {
      const location = owner.locate(item);
      if (location) return write(location);
      if (!create) throw notFound("Wiki Page");
      return write(await owner.create(wiki.id, item));
    },
    { requireRepository: wiki.owner === "project" },
  );
}

/**
 * Picks a storage by weight, initialises the repository, then records it on the group item — only if
 * none is recorded yet. We hold the write lease, so the condition only fails if the group vanished or
 * someone bypassed the lease; an unrecorded empty repository left behind then is harmless.
 */
async function createGroupWikiRepository(groupId: number): Promise<RepositoryLocation> {
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
    const group = await findGroup(groupId);
    const current = group && groupWiki(group).location;
    if (!current) throw notFound("Group");
    return current;
  }
}

/**
 * Initialises `<project repository>.wiki.git` on the project's storage, then records that it exists.
 * The condition pins the storage the lease read: a project that was meanwhile switched to another
 * storage (impossible while we hold the lease, which a move waits for) would not be marked.
 */
async function createProjectWikiRepository(projectId: number, project: ContainerItem): Promise<RepositoryLocation> {
  const location = projectWikiLocation({ ...project, wikiRepository: true });
  if (!location) throw notFound("Project");
  await initRepository(location.storage, location.relativePath, { defaultBranch: WIKI_BRANCH });
  try {
    await updateItem({
      ...containerKey("project", projectId),
      update: "SET wikiRepository = :t",
      condition: "attribute_exists(pk) AND #storage = :s",
      names: { "#storage": "storage" },
      values: { ":t": true, ":s": location.storage },
    });
  } catch (err) {
    if (isConditionFailure(err)) throw notFound("Project");
    throw err;
  }
  return location;
}

export async function createPage(wiki: Wiki, author: Author, input: { title: string; content: string; format: WikiFormat }): Promise<WikiPage> {
  const slug = slugOf(input.title);
  return writeWiki(wiki, true, async (loc) => {
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
export async function updatePage(wiki: Wiki, author: Author, slug: string, changes: { title?: string; content?: string; format?: WikiFormat }): Promise<WikiPage> {
  return writeWiki(wiki, false, async (loc) => {
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

export async function deletePage(wiki: Wiki, author: Author, slug: string): Promise<void> {
  await writeWiki(wiki, false, async (loc) => {
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

/**
 * GitLab's wiki attachment (`Wikis::CreateAttachmentService`): the file committed to the wiki
 * repository at `uploads/<32 hex digits>/<name>` on `branch` (the wiki's default branch unless given),
 * through the wiki's write path, as the uploader. The first upload creates the wiki repository, as a
 * first page does.
 */
export async function uploadAttachment(wiki: Wiki, author: Author, file: { name: string; bytes: Uint8Array }, branch = WIKI_BRANCH): Promise<{ fileName: string; filePath: string; branch: string }> {
  const filePath = `uploads/${randomBytes(16).toString("hex")}/${file.name}`;
  await writeWiki(wiki, true, (loc) =>
    commitActions(loc.storage, loc.relativePath, {
      branch,
      message: `Upload attachment ${file.name}`,
      author,
      actions: [{ action: "create", file_path: filePath, content: Buffer.from(file.bytes).toString("base64"), encoding: "base64" }],
    }),
  );
  return { fileName: file.name, filePath, branch };
}
