/**
 * GitLab's `Repositories::ChangelogService`: the release section for `version` from the commits of
 * `from..to` that carry the trailer (`Changelog: added`), and for a POST its commit into the
 * changelog file. Without `from`, the range starts at the tag of the newest stable version older
 * than `version` (tags read by the configuration's `tag_regex`); without `to`, at the branch's head.
 * A commit reverted in the range leaves the changelog, with its revert.
 */
import { commitTitle, storedMessage } from "../git/commit-info.js";
import { commitActions } from "../git/commit.js";
import { readFile } from "../git/read.js";
import { commitsBetween } from "../git/history.js";
import { requireRepository } from "../git/lifecycle.js";
import { listAllRefs, resolveCommit, type ObjectCache } from "../git/refs.js";
import type { RepositoryLocation } from "../write-path.js";
import { ChangelogError, changelogConfig } from "./config.js";
import { addRelease, releaseMarkdown, type ReleaseEntry } from "./release.js";

export { ChangelogError };

export interface ChangelogRequest {
  version: string;
  from?: string;
  to?: string;
  date?: Date;
  trailer: string;
  configFile: string;
  /** Where the range ends without `to`, and where a POST commits. */
  branch: string;
  /** Where the configuration file is read. */
  configRef: string;
  /** `namespace/project`, for the commits' references. */
  projectPath: string;
}

/** GitLab's limit on the commits of one changelog. */
const COMMITS_LIMIT = 15_000;
const SEMVER = /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;

export const isSemver = (version: string) => SEMVER.test(version);

export async function releaseNotes(loc: RepositoryLocation, req: ChangelogRequest): Promise<string> {
  const gitdir = await requireRepository(loc.storage, loc.relativePath);
  const cache: ObjectCache = {};
  const configText = await readFile(loc.storage, loc.relativePath, { ref: req.configRef, filePath: req.configFile });
  const config = changelogConfig(configText?.toString("utf8"));
  const to = await resolveCommit(gitdir, req.to ?? req.branch, cache);
  if (!to) throw new ChangelogError(`The commit end range ${req.to ?? req.branch} does not exist`);
  const from = req.from !== undefined ? await resolveCommit(gitdir, req.from, cache) : await previousRelease(gitdir, req.version, config.tagRegex, cache);
  if (!from) {
    throw new ChangelogError(req.from !== undefined ? `The commit start range ${req.from} does not exist` : "The commit start range is unspecified, and no previous tag could be found to use instead");
  }
  const range = await commitsBetween(gitdir, from, to, cache);
  if (range.length > COMMITS_LIMIT) throw new ChangelogError(`The commits range exceeds ${COMMITS_LIMIT} elements.`);
  const entries: ReleaseEntry[] = [];
  const reverted = new Set<string>();
  // Newest first, as `git log` lists them: a revert comes before what it reverts.
  for (const oid of [...range].reverse()) {
    const message = await storedMessage(gitdir, oid, cache);
    const undone = /This reverts commit ([0-9a-f]{40})/.exec(message)?.[1];
    if (undone && range.includes(undone)) {
      reverted.add(undone);
      continue;
    }
    if (reverted.has(oid)) continue;
    const trailers = trailersOf(message);
    const category = trailers[req.trailer];
    if (category) entries.push({ title: commitTitle(message), category, commitReference: `${req.projectPath}@${oid}`, trailers });
  }
  return releaseMarkdown(req.version.replace(/^v/, ""), req.date ?? new Date(), entries, config);
}

/** Commits the release section into the changelog file on the branch; nothing when the file has it already. */
export async function commitRelease(loc: RepositoryLocation, req: ChangelogRequest & { file: string; message?: string; author: { name: string; email: string } }): Promise<void> {
  const markdown = await releaseNotes(loc, req);
  const version = req.version.replace(/^v/, "");
  const current = await readFile(loc.storage, loc.relativePath, { ref: req.branch, filePath: req.file });
  const next = addRelease(current?.toString("utf8") ?? "", version, markdown);
  if (current !== undefined && next === current.toString("utf8")) return;
  await commitActions(loc.storage, loc.relativePath, {
    branch: req.branch,
    message: req.message ?? `Add changelog for version ${version}`,
    author: req.author,
    actions: [{ action: current === undefined ? "create" : "update", file_path: req.file, content: next }],
  });
}

/** The commit of the tag naming the newest stable version older than `version`. */
async function previousRelease(gitdir: string, version: string, tagRegex: RegExp, cache: ObjectCache): Promise<string | undefined> {
  const wanted = numbers(SEMVER.exec(version)!);
  let best: { parts: number[]; name: string } | undefined;
  for (const { name } of await listAllRefs(gitdir)) {
    if (!name.startsWith("refs/tags/")) continue;
    const groups = tagRegex.exec(name.slice("refs/tags/".length))?.groups;
    if (!groups || groups.pre !== undefined || groups.major === undefined) continue;
    const parts = [groups.major, groups.minor ?? "0", groups.patch ?? "0"].map(Number);
    if (compare(parts, wanted) < 0 && (!best || compare(parts, best.parts) > 0)) best = { parts, name };
  }
  return best && resolveCommit(gitdir, best.name, cache);
}

const numbers = (m: RegExpExecArray) => [m[1], m[2], m[3]].map(Number);
const compare = (a: number[], b: number[]) => a[0]! - b[0]! || a[1]! - b[1]! || a[2]! - b[2]!;

/** git's trailers: the message's last paragraph, when each of its lines is a `Key: value`. */
function trailersOf(message: string): Record<string, string> {
  const paragraphs = message.trim().split(/\n\s*\n/);
  if (paragraphs.length < 2) return {};
  const lines = paragraphs.at(-1)!.split("\n");
  const pairs = lines.map((line) => /^([A-Za-z0-9][A-Za-z0-9-]*):\s*(.*)$/.exec(line));
  if (pairs.some((p) => !p)) return {};
  return Object.fromEntries(pairs.map((p) => [p![1]!, p![2]!.trim()]));
}
