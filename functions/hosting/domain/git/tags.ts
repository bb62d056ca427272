/**
 * Tags as GitLab's tags API (`/projects/:id/repository/tags`) sees them: lightweight tags (a ref to a
 * commit) and annotated ones (a ref to a tag object with a message and a tagger), listed with
 * GitLab's search and orders, created and deleted with compare-and-swap on the ref.
 */
import { gitFs as fs } from "./git-fs.js";
import { git } from "./engine.js";
import { gitDateToIso, readCommitInfo, type CommitInfo } from "./commit-info.js";
import { sanitizeIdentity } from "./commit-object.js";
import { GitActionError } from "./errors.js";
import { requireRepository } from "./lifecycle.js";
import { withRepositoryMutex } from "./mutex.js";
import { refSearch } from "./ref-search.js";
import { deleteRef, isValidRefName, listAllRefs, resolveCommit, resolveExactRef, updateRef, type ObjectCache } from "./refs.js";
import { mirrorToReplicas } from "./replica-sync.js";
import { replicaPaths } from "./storage.js";

export interface Tag {
  name: string;
  /** The annotation; null for a lightweight tag. */
  message: string | null;
  /** What the ref points at: the tag object of an annotated tag, the commit of a lightweight one. */
  target: string;
  commit: CommitInfo;
  /** When an annotated tag was made (its tagger date); null for a lightweight tag. */
  created_at: string | null;
}

export type TagOrder = "name" | "updated" | "version";

const TAGS = "refs/tags/";

/**
 * One page of the tags whose names match `search`, in GitLab's order: `updated` (the default) by
 * the tag's date — the tagger's for an annotated tag, the commit's for a lightweight one — newest
 * first unless `sort` is `asc`; `version` as `git tag --sort=version:refname`.
 */
export async function listTagPage(
  storage: string,
  rel: string,
  opts: { search?: string; orderBy?: TagOrder; sort?: "asc" | "desc"; offset: number; limit: number },
): Promise<{ tags: Tag[]; total: number }> {
  const gitdir = await requireRepository(storage, rel);
  const cache: ObjectCache = {};
  const matches = refSearch(opts.search);
  const refs = (await listAllRefs(gitdir)).filter((r) => r.name.startsWith(TAGS)).map((r) => ({ name: r.name.slice(TAGS.length), oid: r.oid })).filter((t) => matches(t.name));
  const tags = (await Promise.all(refs.map((r) => describeTag(gitdir, r, cache)))).filter((t): t is Tag & { at: number } => t !== undefined);
  type Dated = (typeof tags)[number];
  const orderBy = opts.orderBy ?? "updated";
  const byName = (a: Dated, b: Dated) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  const compare =
    orderBy === "name" ? byName : orderBy === "version" ? (a: Dated, b: Dated) => compareVersions(a.name, b.name) || byName(a, b) : (a: Dated, b: Dated) => a.at - b.at || byName(a, b);
  const sign = (opts.sort ?? "desc") === "asc" ? 1 : -1;
  tags.sort((a, b) => sign * compare(a, b));
  return { tags: tags.slice(opts.offset, opts.offset + opts.limit).map(({ at: _at, ...tag }) => tag), total: tags.length };
}

export async function findTag(storage: string, rel: string, name: string): Promise<Tag | undefined> {
  const gitdir = await requireRepository(storage, rel);
  const oid = isValidRefName(name) ? await resolveExactRef(gitdir, `${TAGS}${name}`) : undefined;
  const tag = oid ? await describeTag(gitdir, { name, oid }, {}) : undefined;
  if (!tag) return undefined;
  const { at: _at, ...shown } = tag;
  return shown;
}

/**
 * GitLab's `Tags::CreateService`: `Target is empty`, `Tag name invalid`, `Tag <name> already exists`,
 * `Target <ref> is invalid`, each a 400. With a message the tag is annotated, its tagger the caller.
 * `guard` is GitLab's push check of the new ref (protected tags), run once the tag is valid, before
 * anything is written; it throws to refuse.
 */
export async function createTag(
  storage: string,
  rel: string,
  input: { name: string; ref: string; message?: string; tagger: { name: string; email: string }; timestamp?: number; guard?: () => Promise<void> },
): Promise<Tag> {
  if (input.ref.trim() === "") throw new GitActionError("Target is empty");
  if (!isValidRefName(input.name)) throw new GitActionError("Tag name invalid");
  const paths = replicaPaths(storage, rel);
  return withRepositoryMutex(paths[0]!, async () => {
    const gitdir = await requireRepository(storage, rel);
    const cache: ObjectCache = {};
    const fullName = `${TAGS}${input.name}`;
    if (await resolveExactRef(gitdir, fullName)) throw new GitActionError(`Tag ${input.name} already exists`);
    const commit = await resolveCommit(gitdir, input.ref, cache);
    if (!commit) throw new GitActionError(`Target ${input.ref} is invalid`);
    await input.guard?.();
    const message = input.message?.trim();
    const target = message ? await writeTagObject(gitdir, { object: commit, name: input.name, message, tagger: input.tagger, timestamp: input.timestamp ?? Math.floor(Date.now() / 1000) }) : commit;
    await updateRef(gitdir, fullName, target, undefined);
    await mirrorToReplicas(paths);
    const { at: _at, ...tag } = (await describeTag(gitdir, { name: input.name, oid: target }, cache))!;
    return tag;
  });
}

/** Deletes the tag; false when there is no such tag. `guard` checks the deletion first (protected tags). */
export async function deleteTag(storage: string, rel: string, name: string, guard?: () => Promise<void>): Promise<boolean> {
  const paths = replicaPaths(storage, rel);
  return withRepositoryMutex(paths[0]!, async () => {
    const gitdir = await requireRepository(storage, rel);
    const oid = isValidRefName(name) ? await resolveExactRef(gitdir, `${TAGS}${name}`) : undefined;
    if (!oid) return false;
    await guard?.();
    await deleteRef(gitdir, `${TAGS}${name}`, oid);
    await mirrorToReplicas(paths);
    return true;
  });
}

/**
 * The tag object as `git tag -a` writes it, in UTC like every commit this service makes; the message
 * stored as given, as the commits this service makes store theirs.
 */
async function writeTagObject(gitdir: string, tag: { object: string; name: string; message: string; tagger: { name: string; email: string }; timestamp: number }): Promise<string> {
  const tagger = `${sanitizeIdentity(tag.tagger.name)} <${sanitizeIdentity(tag.tagger.email)}> ${tag.timestamp} +0000`;
  const object = Buffer.from(`object ${tag.object}\ntype commit\ntag ${tag.name}\ntagger ${tagger}\n\n${tag.message}`, "utf8");
  return git.writeObject({ fs, gitdir, type: "tag", object, format: "content" });
}

/** The tag a ref names, with its date for ordering; undefined when it names no commit at all. */
async function describeTag(gitdir: string, ref: { name: string; oid: string }, cache: ObjectCache): Promise<(Tag & { at: number }) | undefined> {
  const { type } = await git.readObject({ fs, gitdir, oid: ref.oid, cache, format: "parsed" });
  const commitId = await resolveCommit(gitdir, ref.oid, cache);
  if (!commitId) return undefined;
  const commit = await readCommitInfo(gitdir, commitId, cache);
  if (type !== "tag") return { name: ref.name, message: null, target: ref.oid, commit, created_at: null, at: Date.parse(commit.committed_date) / 1000 };
  const [{ tag }, { object }] = await Promise.all([git.readTag({ fs, gitdir, oid: ref.oid, cache }), git.readObject({ fs, gitdir, oid: ref.oid, cache, format: "content" })]);
  const tagger = tag.tagger;
  return {
    name: ref.name,
    message: storedTagMessage(Buffer.from(object as Uint8Array).toString("utf8")),
    target: ref.oid,
    commit,
    created_at: tagger ? gitDateToIso(tagger.timestamp, tagger.timezoneOffset) : null,
    at: tagger ? tagger.timestamp : Date.parse(commit.committed_date) / 1000,
  };
}

/**
 * The annotation exactly as the tag object holds it, without a signature block: isomorphic-git's
 * parsed message gains a newline, and GitLab shows messages as stored (as `storedMessage` does for commits).
 */
function storedTagMessage(text: string): string {
  const start = text.indexOf("\n\n");
  if (start === -1) return "";
  const body = text.slice(start + 2);
  const signature = body.search(/^-----BEGIN (?:PGP SIGNATURE|SSH SIGNATURE|SIGNED MESSAGE)-----$/m);
  return signature === -1 ? body : body.slice(0, signature);
}

/**
 * git's `version:refname` order, simplified: names compared as runs of digits (by value) and of
 * other characters (by code point), so `v1.10` comes after `v1.9`.
 */
export function compareVersions(a: string, b: string): number {
  const runs = (s: string) => s.match(/\d+|\D+/g) ?? [];
  const [x, y] = [runs(a), runs(b)];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const [p, q] = [x[i]!, y[i]!];
    const numeric = /^\d/.test(p) && /^\d/.test(q);
    const diff = numeric ? Number(p) - Number(q) : p < q ? -1 : p > q ? 1 : 0;
    if (diff !== 0) return diff;
  }
  return x.length - y.length;
}
