/**
 * The commit representation of GitLab's API (`GET /projects/:id/repository/commits/:sha`).
 */
import type { CommitObject } from "isomorphic-git";

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

export function toCommitInfo(oid: string, commit: CommitObject): CommitInfo {
  const committedDate = gitDateToIso(commit.committer.timestamp, commit.committer.timezoneOffset);
  return {
    id: oid,
    short_id: oid.slice(0, 8),
    title: commitTitle(commit.message),
    message: commit.message,
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
