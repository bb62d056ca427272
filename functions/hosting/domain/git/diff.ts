/**
 * A commit's changes as GitLab's `GET /projects/:id/repository/commits/:sha/diff` shows them: one
 * entry per file against the first parent (the empty tree for a root commit), `diff` in unified
 * format from the first `@@` hunk header on (no `---`/`+++` lines), as Gitaly hands it to GitLab.
 */
import { structuredPatch } from "diff";
import { gitFs as fs } from "./git-fs.js";
import { git } from "./engine.js";
import { requireRepository } from "./lifecycle.js";
import { resolveCommit, type ObjectCache } from "./refs.js";
import { treeChanges, type Side, type TreeChange } from "./tree-changes.js";

export interface DiffEntry {
  diff: string;
  new_path: string;
  old_path: string;
  a_mode: string;
  b_mode: string;
  new_file: boolean;
  renamed_file: boolean;
  deleted_file: boolean;
  generated_file: boolean;
}

/**
 * Bounds of a textual diff: a side larger than this, or more edits than that, gets an empty `diff`
 * (GitLab empties diffs past its own limits too) instead of holding the request for seconds.
 */
const MAX_SIDE_BYTES = 512 * 1024;
const MAX_EDIT_LENGTH = 5000;
/** git's binary test: a NUL byte in the first 8000 bytes. */
const BINARY_PROBE = 8000;

/** A file's pair of sides, after exact renames were paired up. */
interface FilePair {
  oldPath: string;
  newPath: string;
  before?: Side;
  after?: Side;
}

/**
 * The page `offset`…`offset + limit` of the commit's file diffs and how many there are; undefined
 * when `ref` names no commit. Only the page's files are read and diffed.
 */
export async function commitDiff(
  storage: string,
  rel: string,
  ref: string,
  page: { offset: number; limit: number },
): Promise<{ entries: DiffEntry[]; total: number } | undefined> {
  const gitdir = await requireRepository(storage, rel);
  const cache: ObjectCache = {};
  const oid = await resolveCommit(gitdir, ref, cache);
  if (!oid) return undefined;
  const { tree, parentTree } = await commitTrees(gitdir, oid, cache);
  return treeDiff(gitdir, cache, parentTree, tree, page);
}

/**
 * Whether the commit's diff of `path` (its new path) has an added (`new`) or removed (`old`) line
 * numbered `line` on that side: where GitLab can place a comment on a line of a commit. Undefined
 * when `ref` names no commit.
 */
export async function commitDiffHasLine(storage: string, rel: string, ref: string, position: { path: string; line: number; lineType: "new" | "old" }): Promise<boolean | undefined> {
  const gitdir = await requireRepository(storage, rel);
  const cache: ObjectCache = {};
  const oid = await resolveCommit(gitdir, ref, cache);
  if (!oid) return undefined;
  const { tree, parentTree } = await commitTrees(gitdir, oid, cache);
  const pair = pairRenames(await treeChanges(gitdir, cache, parentTree, tree)).find((p) => p.newPath === position.path);
  return pair !== undefined && changedLines(await unifiedDiff(gitdir, cache, pair), position.lineType).has(position.line);
}

/** The numbers of the lines a unified diff adds (`new`, on the new side) or removes (`old`, on the old side). */
function changedLines(diff: string, side: "new" | "old"): Set<number> {
  const lines = new Set<number>();
  let [oldLine, newLine] = [0, 0];
  for (const line of diff.split("\n")) {
    const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    if (hunk) {
      [oldLine, newLine] = [Number(hunk[1]), Number(hunk[2])];
    } else if (line.startsWith("+")) {
      if (side === "new") lines.add(newLine);
      newLine++;
    } else if (line.startsWith("-")) {
      if (side === "old") lines.add(oldLine);
      oldLine++;
    } else if (line.startsWith(" ")) {
      oldLine++;
      newLine++;
    }
  }
  return lines;
}

/** A commit's tree and its first parent's (undefined for a root commit: the empty tree). */
async function commitTrees(gitdir: string, oid: string, cache: ObjectCache): Promise<{ tree: string; parentTree?: string }> {
  const { commit } = await git.readCommit({ fs, gitdir, oid, cache });
  const parentTree = commit.parent[0] ? (await git.readCommit({ fs, gitdir, oid: commit.parent[0], cache })).commit.tree : undefined;
  return { tree: commit.tree, parentTree };
}

/** The page `offset`…`offset + limit` of the file diffs from one tree to another, and how many there are. */
export async function treeDiff(
  gitdir: string,
  cache: ObjectCache,
  oldTree: string | undefined,
  newTree: string | undefined,
  page: { offset: number; limit: number },
): Promise<{ entries: DiffEntry[]; total: number }> {
  const pairs = pairRenames(await treeChanges(gitdir, cache, oldTree, newTree));
  const entries: DiffEntry[] = [];
  for (const pair of pairs.slice(page.offset, page.offset + page.limit)) entries.push(await toEntry(gitdir, cache, pair));
  return { entries, total: pairs.length };
}

export interface DiffStats {
  additions: number;
  deletions: number;
  total: number;
}

/**
 * GitLab's commit `stats`: lines added and removed against the first parent, as `git diff --numstat`
 * counts them (a binary file counts none, an exact rename none). A side too large to diff counts
 * as wholly rewritten.
 */
export async function commitStats(gitdir: string, oid: string, cache: ObjectCache): Promise<DiffStats> {
  const { tree, parentTree } = await commitTrees(gitdir, oid, cache);
  let additions = 0;
  let deletions = 0;
  for (const pair of pairRenames(await treeChanges(gitdir, cache, parentTree, tree))) {
    if (pair.before?.oid === pair.after?.oid) continue;
    const [before, after] = await Promise.all([content(gitdir, cache, pair.before), content(gitdir, cache, pair.after)]);
    if (isBinary(before) || isBinary(after)) continue;
    const patch = before.length > MAX_SIDE_BYTES || after.length > MAX_SIDE_BYTES ? undefined : linePatch(before, after);
    if (!patch) {
      deletions += lineCount(before);
      additions += lineCount(after);
      continue;
    }
    for (const line of patch.hunks.flatMap((h) => h.lines)) {
      if (line.startsWith("+")) additions++;
      else if (line.startsWith("-")) deletions++;
    }
  }
  return { additions, deletions, total: additions + deletions };
}

const text = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
const linePatch = (before: Uint8Array, after: Uint8Array) => structuredPatch("", "", text(before), text(after), undefined, undefined, { context: 3, maxEditLength: MAX_EDIT_LENGTH });

function lineCount(bytes: Uint8Array): number {
  if (bytes.length === 0) return 0;
  let lines = bytes[bytes.length - 1] === 0x0a ? 0 : 1;
  for (const b of bytes) if (b === 0x0a) lines++;
  return lines;
}

/**
 * A file deleted and another added with the very same content and mode is a rename (git's exact
 * rename detection); what remains are additions, deletions and modifications.
 */
function pairRenames(changes: TreeChange[]): FilePair[] {
  const added = new Map<string, TreeChange[]>();
  for (const c of changes) if (!c.before && c.after) added.set(`${c.after.mode} ${c.after.oid}`, [...(added.get(`${c.after.mode} ${c.after.oid}`) ?? []), c]);
  const renamedTo = new Map<TreeChange, string>();
  const consumed = new Set<TreeChange>();
  for (const c of changes) {
    if (!c.before || c.after) continue;
    const target = added.get(`${c.before.mode} ${c.before.oid}`)?.find((a) => !consumed.has(a));
    if (!target) continue;
    consumed.add(target);
    renamedTo.set(c, target.path);
  }
  const pairs: FilePair[] = [];
  for (const c of changes) {
    if (consumed.has(c)) continue;
    const to = renamedTo.get(c);
    if (to !== undefined) pairs.push({ oldPath: c.path, newPath: to, before: c.before, after: c.before });
    else pairs.push({ oldPath: c.path, newPath: c.path, before: c.before, after: c.after });
  }
  // A rename sits where its new path sorts, as in git's output.
  return pairs.sort((a, b) => (a.newPath < b.newPath ? -1 : a.newPath > b.newPath ? 1 : 0));
}

async function toEntry(gitdir: string, cache: ObjectCache, pair: FilePair): Promise<DiffEntry> {
  return {
    diff: await unifiedDiff(gitdir, cache, pair),
    new_path: pair.newPath,
    old_path: pair.oldPath,
    a_mode: pair.before?.mode ?? "0",
    b_mode: pair.after?.mode ?? "0",
    new_file: !pair.before,
    renamed_file: pair.oldPath !== pair.newPath,
    deleted_file: !pair.after,
    generated_file: false,
  };
}

async function content(gitdir: string, cache: ObjectCache, side: Side | undefined): Promise<Uint8Array> {
  if (!side) return new Uint8Array();
  // A submodule is shown as the commit it points at, as git does.
  if (side.mode === "160000") return Buffer.from(`Subproject commit ${side.oid}\n`);
  return (await git.readBlob({ fs, gitdir, oid: side.oid, cache })).blob;
}

async function unifiedDiff(gitdir: string, cache: ObjectCache, pair: FilePair): Promise<string> {
  if (pair.before?.oid === pair.after?.oid) return "";
  const [before, after] = await Promise.all([content(gitdir, cache, pair.before), content(gitdir, cache, pair.after)]);
  if (isBinary(before) || isBinary(after)) {
    const from = pair.before ? `a/${pair.oldPath}` : "/dev/null";
    const to = pair.after ? `b/${pair.newPath}` : "/dev/null";
    return `Binary files ${from} and ${to} differ\n`;
  }
  if (before.length > MAX_SIDE_BYTES || after.length > MAX_SIDE_BYTES) return "";
  const patch = linePatch(before, after);
  if (!patch) return "";
  return patch.hunks.map((h) => `@@ -${range(h.oldStart, h.oldLines)} +${range(h.newStart, h.newLines)} @@\n${h.lines.map((l) => `${l}\n`).join("")}`).join("");
}

/** git's hunk range: the count is left out when it is 1; an empty range names the line before it. */
function range(start: number, lines: number): string {
  if (lines === 1) return String(start);
  return `${lines === 0 ? start - 1 : start},${lines}`;
}

function isBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, BINARY_PROBE).includes(0);
}
