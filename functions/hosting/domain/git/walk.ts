/**
 * Walking a repository's history as `git log` and `git rev-list` do: from one or more commits along
 * parent links, newest committer date first, each commit once.
 */
import type { CommitObject } from "isomorphic-git";
import { gitFs as fs } from "./git-fs.js";
import { git } from "./engine.js";
import type { ObjectCache } from "./refs.js";

export interface LoggedCommit {
  oid: string;
  commit: CommitObject;
}

/**
 * The commits reachable from `starts` and not from `exclude` (git's `^<excluded> <start>…`), newest
 * committer date first: always the newest commit not yet shown, then its parents join in. With
 * `firstParent`, only first parents are followed.
 */
export async function* walkHistory(
  gitdir: string,
  starts: string[],
  cache: ObjectCache,
  opts: { exclude?: ReadonlySet<string>; firstParent?: boolean } = {},
): AsyncGenerator<LoggedCommit> {
  const read = async (oid: string) => ({ oid, commit: (await git.readCommit({ fs, gitdir, oid, cache })).commit });
  const seen = new Set([...(opts.exclude ?? []), ...starts]);
  const frontier = await Promise.all(starts.filter((oid) => !opts.exclude?.has(oid)).map(read));
  while (frontier.length > 0) {
    let newest = 0;
    for (let i = 1; i < frontier.length; i++) if (frontier[i]!.commit.committer.timestamp > frontier[newest]!.commit.committer.timestamp) newest = i;
    const [next] = frontier.splice(newest, 1);
    yield next!;
    const parents = opts.firstParent ? next!.commit.parent.slice(0, 1) : next!.commit.parent;
    for (const parent of parents) {
      if (seen.has(parent)) continue;
      seen.add(parent);
      frontier.push(await read(parent));
    }
  }
}

/** The first `limit` commits of `walkHistory` that `keep` accepts. */
export async function takeHistory(
  walk: AsyncGenerator<LoggedCommit>,
  limit: number,
  keep: (entry: LoggedCommit) => boolean = () => true,
): Promise<LoggedCommit[]> {
  const out: LoggedCommit[] = [];
  if (limit <= 0) return out;
  for await (const entry of walk) {
    if (!keep(entry)) continue;
    out.push(entry);
    if (out.length >= limit) break;
  }
  return out;
}

/**
 * Every commit reachable from `oid` (itself included), in no particular order: `git rev-list <oid>`
 * as a set, read breadth-first without sorting by date.
 */
export async function reachableFrom(gitdir: string, oid: string, cache: ObjectCache, opts: { firstParent?: boolean } = {}): Promise<Set<string>> {
  const seen = new Set([oid]);
  let level = [oid];
  while (level.length > 0) {
    const next: string[] = [];
    for (const current of level) {
      const { parent } = (await git.readCommit({ fs, gitdir, oid: current, cache })).commit;
      for (const p of opts.firstParent ? parent.slice(0, 1) : parent) {
        if (!seen.has(p)) {
          seen.add(p);
          next.push(p);
        }
      }
    }
    level = next;
  }
  return seen;
}
