/**
 * Writing a commit object byte for byte. isomorphic-git's `writeCommit` appends a newline to every
 * message; GitLab (Gitaly) stores the message it is given as it is, and its API shows it so: a commit
 * made with the message "Fix" reads back as "Fix", and a revert quotes that title. This module
 * renders the object as git's `commit-tree` does and writes it as raw content.
 */
import { gitFs as fs } from "./git-fs.js";
import { git } from "./engine.js";

export interface Signature {
  name: string;
  email: string;
  /** Unix seconds. */
  timestamp: number;
}

export interface NewCommit {
  tree: string;
  parents: string[];
  author: Signature;
  committer: Signature;
  message: string;
}

/** Identities are written in UTC, as every commit this service makes. */
const signature = (who: Signature) => `${who.name} <${who.email}> ${who.timestamp} +0000`;

export async function writeCommitObject(gitdir: string, commit: NewCommit): Promise<string> {
  const headers = [`tree ${commit.tree}`, ...commit.parents.map((p) => `parent ${p}`), `author ${signature(commit.author)}`, `committer ${signature(commit.committer)}`];
  const object = Buffer.from(`${headers.join("\n")}\n\n${commit.message}`, "utf8");
  return git.writeObject({ fs, gitdir, type: "commit", object, format: "content" });
}

/** git strips these from identities too; left in, they would corrupt the commit header. */
export function sanitizeIdentity(value: string): string {
  return value.replace(/[<>\0\r\n]/g, "").trim();
}
