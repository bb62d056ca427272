/**
 * Snippets: a titled set of files kept in the snippet's own repository (branch `main`). Personal
 * snippets belong to their author; project snippets (`projectId`) also to a project, whose members
 * reach them through `project-snippets.ts`. Both kinds live on storages and move with snippet moves.
 */
import { getItem, isConditionFailure, nextId, putItem, queryAll, queryPage, transact, GSI1, type TransactItem } from "../../platform/db/table.js";
import type { RequestOrigin } from "../../platform/http/request-origin.js";
import { badRequest, forbidden, notFound, paramError } from "../../platform/http/errors.js";
import { describeError, log } from "../../platform/log.js";
import type { Principal } from "../../identity/domain/auth.js";
import { pickStorage } from "../../identity/domain/settings.js";
import { AccessLevel, canSee, type Visibility } from "./access.js";
import { containerKey, snippetsOfAuthorIndex, snippetsOfProjectIndex, storageIndexKeys, visibleMarkerKey } from "./keys.js";
import { commitActions, hashedRelativePath, initRepository, listTree, readFile, removeRepository } from "./git/index.js";
import { readRepository } from "./read-path.js";
import { withRepositoryWrite, type RepositoryLocation } from "./write-path.js";

export { basicSnippetView } from "./snippet-view.js";

/** GitLab commits snippet files to the repository's default branch, `main` on new instances. */
export const SNIPPET_BRANCH = "main";

export interface Snippet {
  id: number;
  title: string;
  /** "" when none was given (the same shape as projects and groups); the API shows that as null. */
  description: string;
  visibility: Visibility;
  authorId: number;
  createdAt: string;
  updatedAt: string;
  storage: string;
  relativePath: string;
  readOnly: boolean;
  /** Who created it from where (GitLab's `user_agent_detail`, for administrators); absent on older snippets. */
  createdFrom?: RequestOrigin;
  /** Set on a project snippet: the project it belongs to. */
  projectId?: number;
}

export interface SnippetFileAction {
  action: "create" | "update" | "delete" | "move";
  file_path: string;
  previous_path?: string;
  content?: string;
}

export async function findSnippet(id: number): Promise<Snippet | undefined> {
  const key = containerKey("snippet", id);
  return getItem<Snippet>(key.pk, key.sk);
}

/**
 * The personal snippet if the caller may see it (private: author and admins; internal: any signed-in
 * user; public: everyone), and whether it may change it (author or admin). Hidden snippets answer
 * 404, and so do project snippets: their project decides who sees them (`project-snippets.ts`).
 */
export async function visibleSnippet(principal: Principal | undefined, id: number) {
  const snippet = await findSnippet(id);
  if (!snippet || snippet.projectId !== undefined) throw notFound("Snippet");
  const mayWrite = !!principal && (principal.user.admin || principal.user.id === snippet.authorId);
  if (!canSee(principal, snippet.visibility, mayWrite ? AccessLevel.owner : AccessLevel.none)) throw notFound("Snippet");
  return { snippet, mayWrite };
}

export async function writableSnippet(principal: Principal, id: number): Promise<Snippet> {
  const { snippet, mayWrite } = await visibleSnippet(principal, id);
  if (!mayWrite) throw forbidden();
  return snippet;
}

const authorOf = (p: Principal) => ({ name: p.user.name, email: p.user.email });

/**
 * A public or internal snippet's entry among `VISIBLE#snippet` (with what the instance-wide lists
 * filter on, `snippet-lists.ts`); a private one has none. Written with every change of visibility.
 */
const visibleEntry = (s: Snippet) => ({ ...visibleMarkerKey("snippet", s.id), visibility: s.visibility, createdAt: s.createdAt, ...(s.projectId !== undefined ? { projectId: s.projectId } : {}) });
const visibleEntryWrite = (s: Snippet): TransactItem => (s.visibility === "private" ? { Delete: { Key: visibleMarkerKey("snippet", s.id) } } : { Put: { Item: visibleEntry(s) } });

export async function createSnippet(
  principal: Principal,
  input: { title: string; description?: string; visibility?: Visibility; files: Array<{ file_path: string; content: string }>; createdFrom?: RequestOrigin; projectId?: number },
): Promise<Snippet> {
  const storage = await pickStorage();
  if (!storage) throw badRequest("no repository storage is available for new snippets");
  const id = await nextId("snippets");
  const now = new Date().toISOString();
  const snippet: Snippet = {
    id,
    title: input.title,
    description: input.description ?? "",
    visibility: input.visibility ?? "private",
    authorId: principal.user.id,
    createdAt: now,
    updatedAt: now,
    storage,
    relativePath: hashedRelativePath("snippet", id),
    readOnly: false,
    ...(input.createdFrom ? { createdFrom: input.createdFrom } : {}),
    ...(input.projectId !== undefined ? { projectId: input.projectId } : {}),
  };
  // Repository first, then the item that points at it: no reader ever sees a dangling snippet.
  await initRepository(storage, snippet.relativePath, { defaultBranch: SNIPPET_BRANCH });
  const listedUnder = snippet.projectId !== undefined ? snippetsOfProjectIndex(snippet.projectId, id) : snippetsOfAuthorIndex(snippet.authorId, id);
  const item = { ...containerKey("snippet", id), ...listedUnder, ...storageIndexKeys("snippet", storage, id), type: "snippet", ...snippet };
  try {
    await putItem(item);
    await withRepositoryWrite("snippet", id, (loc) =>
      commitActions(loc!.storage, loc!.relativePath, {
        branch: SNIPPET_BRANCH,
        message: "Initial commit",
        author: authorOf(principal),
        actions: input.files.map((f) => ({ action: "create" as const, ...f })),
      }),
    );
  } catch (err) {
    // A snippet whose files were refused (bad path, duplicate name) must not survive half-made.
    await discard(snippet).catch((cleanup) => log.warn("snippet rollback failed", { snippetId: id, ...describeError(cleanup) }));
    throw err;
  }
  if (snippet.visibility !== "private") await putItem(visibleEntry(snippet));
  return snippet;
}

async function discard(snippet: Snippet): Promise<void> {
  try {
    // Never under a storage move (read-only): the move owns the repository until it finishes.
    await transact([{ Delete: { Key: containerKey("snippet", snippet.id), ConditionExpression: "attribute_not_exists(readOnly) OR readOnly = :f", ExpressionAttributeValues: { ":f": false } } }]);
  } catch (err) {
    if (isConditionFailure(err)) return;
    throw err;
  }
  await removeRepository(snippet.storage, snippet.relativePath);
}

/** Files left after `actions`, so a change that would empty the snippet is refused before committing. */
function remainingFiles(current: string[], actions: SnippetFileAction[]): string[] {
  const files = new Set(current);
  actions.forEach((a, i) => {
    if ((a.action === "create" || a.action === "update") && a.content === undefined) throw paramError(`files.${i}.content is missing`);
    if (a.action === "move" && !a.previous_path) throw paramError(`files.${i}.previous_path is missing`);
    if (a.action === "create") files.add(a.file_path);
    if (a.action === "delete") files.delete(a.file_path);
    if (a.action === "move") {
      files.delete(a.previous_path!);
      files.add(a.file_path);
    }
  });
  return [...files];
}

/**
 * Every update, metadata included, goes through the write path: while a storage move holds the
 * repository the whole request is refused with the read-only error and nothing changes.
 */
export async function updateSnippet(
  principal: Principal,
  snippet: Snippet,
  changes: { title?: string; description?: string; visibility?: Visibility; files?: SnippetFileAction[] },
): Promise<Snippet> {
  return withRepositoryWrite("snippet", snippet.id, async (loc) => {
    if (changes.files?.length) {
      if (remainingFiles(await filesAt(loc!), changes.files).length === 0) throw badRequest("a snippet must keep at least one file");
      await commitActions(loc!.storage, loc!.relativePath, { branch: SNIPPET_BRANCH, message: "Update snippet", author: authorOf(principal), actions: changes.files });
    }
    const next: Snippet = {
      ...snippet,
      ...loc!,
      title: changes.title ?? snippet.title,
      description: changes.description ?? snippet.description,
      visibility: changes.visibility ?? snippet.visibility,
      updatedAt: new Date().toISOString(),
    };
    await transact([
      {
        Update: {
          Key: containerKey("snippet", snippet.id),
          UpdateExpression: "SET title = :t, description = :d, visibility = :v, updatedAt = :u",
          ConditionExpression: "attribute_exists(pk)",
          ExpressionAttributeValues: { ":t": next.title, ":d": next.description, ":v": next.visibility, ":u": next.updatedAt },
        },
      },
      visibleEntryWrite(next),
    ]);
    return next;
  });
}

/** Deletes the item and the repository; refused while read-only (a move would leave a copy behind). */
export async function deleteSnippet(snippet: Snippet): Promise<void> {
  await withRepositoryWrite("snippet", snippet.id, async (loc) => {
    await transact([{ Delete: { Key: containerKey("snippet", snippet.id) } }, { Delete: { Key: visibleMarkerKey("snippet", snippet.id) } }]);
    if (loc) await removeRepository(loc.storage, loc.relativePath);
  });
}

/** The caller's own snippets, newest first (GitLab's `GET /snippets`). */
export async function listSnippetsOfAuthor(authorId: number, offset: number, limit: number) {
  const page = await queryPage<Snippet>({ index: GSI1, pk: snippetsOfAuthorIndex(authorId, 0).gsi1pk, offset, limit });
  return { snippets: page.items, hasMore: page.hasMore };
}

/** A project's snippets, newest first (GitLab's `GET /projects/:id/snippets`). */
export async function listSnippetsOfProject(projectId: number, offset: number, limit: number) {
  const page = await queryPage<Snippet>({ index: GSI1, pk: snippetsOfProjectIndex(projectId, 0).gsi1pk, offset, limit });
  return { snippets: page.items, hasMore: page.hasMore };
}

/**
 * Deletes every snippet of a project, before the project itself goes: each through the write path,
 * so one held by a storage move refuses the whole deletion (the caller retries) instead of leaving
 * a copy behind.
 */
export async function deleteSnippetsOfProject(projectId: number): Promise<void> {
  // The index holds whole items, and each deletion re-reads its own under the write lease.
  for (const snippet of await queryAll<Snippet>({ index: GSI1, pk: snippetsOfProjectIndex(projectId, 0).gsi1pk })) await deleteSnippet(snippet);
}

async function filesAt(loc: RepositoryLocation): Promise<string[]> {
  const tree = await listTree(loc.storage, loc.relativePath, { ref: SNIPPET_BRANCH, recursive: true });
  return (tree ?? []).filter((t) => t.type === "blob").map((t) => t.path).sort();
}

/** File paths on `main`, in git's order; the first one is the snippet's `file_name`. */
export function snippetFiles(snippet: Snippet): Promise<string[]> {
  return readRepository("snippet", snippet.id, snippet, filesAt);
}

export function readSnippetFile(snippet: Snippet, ref: string, filePath: string): Promise<Buffer | undefined> {
  return readRepository("snippet", snippet.id, snippet, (loc) => readFile(loc.storage, loc.relativePath, { ref, filePath }));
}
