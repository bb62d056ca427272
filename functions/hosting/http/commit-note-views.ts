/**
 * GitLab's entities of commit comments: `CommitNote` (the comments routes) and `Discussion` of
 * `Note`s (the discussions route), and the commit lookup both start from.
 */
import type { Context } from "hono";
import type { Principal } from "../../identity/domain/auth.js";
import { basicUser, type User } from "../../identity/domain/users.js";
import { notFound } from "../../platform/http/errors.js";
import { baseUrl } from "../../platform/http/urls.js";
import type { CommitNote } from "../domain/commit-notes.js";
import { getCommit } from "../domain/git/index.js";
import { readRepository } from "../domain/read-path.js";
import { codeReader } from "./repository-access.js";

/** The project and the commit `sha` names in it, for a caller who may read its code (GitLab's `authorize_read_code!`). */
export async function commitOfProject(principal: Principal | undefined, id: string, sha: string) {
  const { project, level } = await codeReader(principal, id, { denied: "forbidden" });
  const commit = await readRepository("project", project.id, project, (loc) => getCommit(loc.storage, loc.relativePath, sha));
  if (!commit) throw notFound("Commit");
  return { project, level, commit };
}

const authorView = (c: Context, author: User | undefined) => (author ? basicUser(author, baseUrl(c)) : null);

export function commitNoteView(c: Context, { note, author }: { note: CommitNote; author: User | undefined }) {
  return { note: note.note, path: note.path, line: note.line, line_type: note.lineType, author: authorView(c, author), created_at: note.createdAt };
}

/**
 * A note as one discussion: GitLab's `individual_note`. A note placed on a diff line is GitLab's
 * `LegacyDiffNote` (the type commit comments with a position get); a note on the commit has none.
 */
export function discussionView(c: Context, { note, author }: { note: CommitNote; author: User | undefined }) {
  return {
    id: note.discussionId,
    individual_note: true,
    notes: [
      {
        id: note.id,
        type: note.path === null ? null : "LegacyDiffNote",
        body: note.note,
        attachment: null,
        author: authorView(c, author),
        created_at: note.createdAt,
        updated_at: note.createdAt,
        system: false,
        noteable_id: null,
        noteable_type: "Commit",
        project_id: note.projectId,
        commit_id: note.commitId,
        resolvable: false,
        confidential: null,
        internal: null,
        imported: false,
        imported_from: "none",
        noteable_iid: null,
        commands_changes: {},
      },
    ],
  };
}
