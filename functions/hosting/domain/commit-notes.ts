/**
 * Comments on commits (GitLab's commit notes, `…/repository/commits/:sha/comments` and
 * `…/discussions`). A note belongs to a project and a commit id; it may sit on a line of the
 * commit's diff (`path`, `line`, `line_type`), else on the commit as a whole. Each note is a
 * discussion of its own (GitLab's individual note), with an id of 40 hex digits as GitLab gives them.
 */
import { randomBytes } from "node:crypto";
import { countRange, getItems, nextId, putItem, queryAll, queryPage, writeBatch } from "../../platform/db/table.js";
import { userKey } from "../../identity/domain/keys.js";
import { toUser, type User } from "../../identity/domain/users.js";
import { commitNoteKey, commitNotesPrefix } from "./keys.js";

export interface CommitNote {
  id: number;
  projectId: number;
  commitId: string;
  note: string;
  authorId: number;
  path: string | null;
  line: number | null;
  lineType: "new" | "old" | null;
  discussionId: string;
  createdAt: string;
}

export async function addCommitNote(input: Omit<CommitNote, "id" | "discussionId" | "createdAt">): Promise<CommitNote> {
  const note: CommitNote = { ...input, id: await nextId("notes"), discussionId: randomBytes(20).toString("hex"), createdAt: new Date().toISOString() };
  await putItem({ ...commitNoteKey(note.projectId, note.commitId, note.id), ...note }, { expression: "attribute_not_exists(pk)" });
  return note;
}

/** GitLab omits totals above 10,000. */
const MAX_COUNTED = 10_000;

/** One page of a commit's notes, oldest first, with their authors (null for a user since removed). */
export async function commitNotePage(projectId: number, commitId: string, offset: number, limit: number) {
  const range = { pk: commitNoteKey(projectId, commitId, 0).pk, skPrefix: commitNotesPrefix(commitId) };
  const page = await queryPage<CommitNote>({ ...range, ascending: true, offset, limit });
  const total = page.hasMore ? await countRange(range, MAX_COUNTED) : offset + page.items.length;
  return { notes: await withAuthors(page.items), hasMore: page.hasMore, total };
}

export async function withAuthors(notes: CommitNote[]): Promise<Array<{ note: CommitNote; author: User | undefined }>> {
  const users = await getItems<User>([...new Set(notes.map((n) => n.authorId))].map(userKey));
  const byId = new Map(users.filter((u): u is User => !!u).map((u) => [u.id, toUser(u)]));
  return notes.map((note) => ({ note, author: byId.get(note.authorId) }));
}

/** A project's notes go with it. */
export async function deleteCommitNotesOf(projectId: number): Promise<void> {
  const pk = commitNoteKey(projectId, "", 0).pk;
  const notes = await queryAll<{ pk: string; sk: string }>({ pk, skPrefix: commitNotesPrefix(), projection: ["pk", "sk"] });
  await writeBatch(notes.map((n) => ({ delete: { pk: n.pk, sk: n.sk } })));
}
