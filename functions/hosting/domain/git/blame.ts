/**
 * `git blame` for GitLab's blame API: each line of a file at a commit, attributed to the commit that
 * introduced it, grouped into ranges of consecutive lines from the same commit.
 *
 * The file's versions are followed back through the commits that changed it (`lastCommitForPath`,
 * git's history simplification); between two versions the unchanged lines are those of a longest
 * common subsequence, so a line keeps the older commit while it survives unchanged.
 */
import { gitFs as fs } from "./git-fs.js";
import { git, gitErrorCode } from "./engine.js";
import { readCommitInfo, type CommitInfo } from "./commit-info.js";
import { fileAtRef, lastCommitForPath, type FileAtRef } from "./file-info.js";
import { requireRepository } from "./lifecycle.js";
import type { ObjectCache } from "./refs.js";

export interface BlameRange {
  commit: CommitInfo;
  lines: string[];
}

/** Past this many cells the middle of a change is not matched line by line (its lines count as changed). */
const MAX_LCS_CELLS = 16_000_000;

/**
 * GitLab's blame of `filePath` at `ref`: the file's metadata and its ranges (only lines `range.start`
 * to `range.end`, 1-based and inclusive, when given).
 */
export async function blameAtRef(
  storage: string,
  rel: string,
  opts: { ref: string; filePath: string; range?: { start: number; end: number } },
): Promise<{ missing: "commit" | "file" } | { file: FileAtRef; ranges: BlameRange[] }> {
  const file = await fileAtRef(storage, rel, opts);
  if ("missing" in file) return file;
  const ranges = await blameFile(await requireRepository(storage, rel), file.commitId, opts.filePath, {}, opts.range);
  return { file, ranges };
}

export async function blameFile(gitdir: string, start: string, filePath: string, cache: ObjectCache, range?: { start: number; end: number }): Promise<BlameRange[]> {
  let commit = await lastCommitForPath(gitdir, start, filePath, cache);
  let text = await contentAt(gitdir, commit, filePath, cache);
  const lines = splitLines(text!);
  // owner[i] = commit of line i of the file at `start`; `at[i]` = where that line is in the version being examined.
  const owner: Array<string | undefined> = lines.map(() => undefined);
  let at = lines.map((_, i) => i);
  for (;;) {
    const { parent } = (await git.readCommit({ fs, gitdir, oid: commit, cache })).commit;
    const older = parent[0] === undefined ? undefined : await contentAt(gitdir, parent[0], filePath, cache);
    if (older === undefined) {
      for (let i = 0; i < lines.length; i++) if (owner[i] === undefined) owner[i] = commit;
      break;
    }
    const previousCommit = await lastCommitForPath(gitdir, parent[0]!, filePath, cache);
    const match = matchLines(splitLines(text!), splitLines(older));
    at = at.map((pos, i) => {
      if (owner[i] !== undefined) return -1;
      const before = match[pos]!;
      if (before === -1) owner[i] = commit;
      return before;
    });
    if (owner.every((o) => o !== undefined)) break;
    commit = previousCommit;
    text = older;
  }
  const infos = new Map<string, CommitInfo>();
  const ranges: BlameRange[] = [];
  for (const [i, line] of lines.entries()) {
    if (range && (i + 1 < range.start || i + 1 > range.end)) continue;
    const id = owner[i]!;
    const last = ranges[ranges.length - 1];
    if (last && last.commit.id === id) {
      last.lines.push(line);
      continue;
    }
    let info = infos.get(id);
    if (!info) infos.set(id, (info = await readCommitInfo(gitdir, id, cache)));
    ranges.push({ commit: info, lines: [line] });
  }
  return ranges;
}

async function contentAt(gitdir: string, commit: string, filePath: string, cache: ObjectCache): Promise<string | undefined> {
  try {
    const { blob } = await git.readBlob({ fs, gitdir, oid: commit, filepath: filePath, cache });
    return Buffer.from(blob).toString("utf8");
  } catch (err) {
    if (gitErrorCode(err) === "NotFoundError" || gitErrorCode(err) === "ObjectTypeError") return undefined;
    throw err;
  }
}

/** Lines as git counts them: a final newline ends the last line rather than starting an empty one. */
function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** For each line of `a`, the index of the same, unchanged line in `b`, or -1 (a longest common subsequence). */
export function matchLines(a: string[], b: string[]): number[] {
  const match = a.map(() => -1);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) match[head] = head++;
  let tailA = a.length;
  let tailB = b.length;
  while (tailA > head && tailB > head && a[tailA - 1] === b[tailB - 1]) match[--tailA] = --tailB;
  const n = tailA - head;
  const m = tailB - head;
  if (n === 0 || m === 0 || (n + 1) * (m + 1) > MAX_LCS_CELLS) return match;
  // lcs[i][j] = LCS length of a[head+i..tailA) and b[head+j..tailB), filled from the end.
  const width = m + 1;
  const lcs = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * width + j] = a[head + i] === b[head + j] ? lcs[(i + 1) * width + j + 1]! + 1 : Math.max(lcs[(i + 1) * width + j]!, lcs[i * width + j + 1]!);
    }
  }
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[head + i] === b[head + j]) {
      match[head + i] = head + j;
      i++;
      j++;
    } else if (lcs[(i + 1) * width + j]! >= lcs[i * width + j + 1]!) i++;
    else j++;
  }
  return match;
}
