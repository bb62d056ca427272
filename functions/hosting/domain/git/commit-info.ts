/**
 * The commit representation of GitLab's API (`GET /projects/:id/repository/commits/:sha`).
 */
import type { CommitObject } from "isomorphic-git";
import { gitFs as fs } from "./git-fs.js";
import { git } from "./engine.js";
import type { ObjectCache } from "./refs.js";

export interface CommitInfo {
  id: string;
  short_id: string;
  title: string;
  message: string;
  author_name: string;
  author_email: string;
  authored_date: string;
  committer_name: string;
  committer_email: string;
  committed_date: string;
  created_at: string;
  parent_ids: string[];
}

/** The commit `oid` as GitLab's API shows it, its message as stored (see `storedMessage`). */
export async function readCommitInfo(gitdir: string, oid: string, cache: ObjectCache): Promise<CommitInfo> {
  const [{ commit }, message] = await Promise.all([git.readCommit({ fs, gitdir, oid, cache }), storedMessage(gitdir, oid, cache)]);
  return toCommitInfo(oid, commit, message);
}

/**
 * The message exactly as the commit object holds it. isomorphic-git normalises messages it parses
 * (one trailing newline, no carriage returns); GitLab shows them as stored: "Fix" for a commit made
 * through the API, "Fix\n" for one `git commit` made.
 */
export async function storedMessage(gitdir: string, oid: string, cache: ObjectCache): Promise<string> {
  const { object } = await git.readObject({ fs, gitdir, oid, format: "content", cache });
  const text = Buffer.from(object as Uint8Array).toString("utf8");
  const end = text.indexOf("\n\n");
  return end === -1 ? "" : text.slice(end + 2);
}

export function toCommitInfo(oid: string, commit: CommitObject, message = commit.message): CommitInfo {
  const committedDate = gitDateToIso(commit.committer.timestamp, commit.committer.timezoneOffset);
  return {
    id: oid,
    short_id: oid.slice(0, 8),
    title: commitTitle(message),
    message,
    author_name: commit.author.name,
    author_email: commit.author.email,
    authored_date: gitDateToIso(commit.author.timestamp, commit.author.timezoneOffset),
    committer_name: commit.committer.name,
    committer_email: commit.committer.email,
    committed_date: committedDate,
    created_at: committedDate,
    parent_ids: [...commit.parent],
  };
}

/**
 * GitLab's `Commit#title`: the first line, shortened at a word boundary with "…" when it is 100
 * characters or longer.
 */
export function commitTitle(message: string): string {
  const first = message.split(/\r?\n/, 1)[0] ?? "";
  if (first.length < 100) return first;
  const space = first.lastIndexOf(" ", 80);
  return `${first.slice(0, space === -1 ? 80 : space)}…`;
}

/**
 * ISO 8601 in the commit's own time zone with milliseconds, as GitLab renders commit dates
 * (`2024-01-02T03:04:05.000+01:00`). isomorphic-git's offset follows `Date#getTimezoneOffset`,
 * i.e. minutes west of UTC.
 */
export function gitDateToIso(timestamp: number, timezoneOffset: number): string {
  const eastMinutes = -timezoneOffset;
  const local = new Date((timestamp + eastMinutes * 60) * 1000).toISOString().slice(0, 19);
  const sign = eastMinutes < 0 ? "-" : "+";
  const abs = Math.abs(eastMinutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, "0");
  const mm = String(abs % 60).padStart(2, "0");
  return `${local}.000${sign}${hh}:${mm}`;
}
