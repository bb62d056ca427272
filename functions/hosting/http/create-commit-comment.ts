import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { ApiError, forbidden, paramError } from "../../platform/http/errors.js";
import { positiveInt } from "../../platform/http/params.js";
import { addCommitNote } from "../domain/commit-notes.js";
import { commitDiffHasLine } from "../domain/git/index.js";
import { readRepository } from "../domain/read-path.js";
import { commitParams } from "./commit-schemas.js";
import { commitNoteView, commitOfProject } from "./commit-note-views.js";
import { recordContribution } from "../domain/contributions.js";

/** GitLab's note length limit. */
const MAX_NOTE = 1_000_000;

/**
 * GitLab's "Post comment to commit": anyone who may read the code (Reporter+ on a private project,
 * any user on a public one; not in an archived project). With `path`, `line` is required and
 * `line_type` is `new` (default) or `old`; a position that is not an added or removed line of the
 * commit's diff keeps the note on the commit, with `path`, `line` and `line_type` null. A blank note
 * is GitLab's `400 Failed to save note …`. Comments live in the table, not the repository: a storage
 * move does not hold them.
 */
export const endpoint = defineEndpoint(
  {
    summary: "Comment on a commit",
    access: "write",
    status: 201,
    params: commitParams,
    body: z.object({
      note: z.string().check(z.maxLength(MAX_NOTE + 1)),
      path: z.optional(z.string().check(z.minLength(1), z.maxLength(4096))),
      line: z.optional(positiveInt()),
      line_type: z.optional(z.enum(["new", "old"])),
    }),
  },
  async ({ c, principal, params, body }) => {
    if (body.path !== undefined && body.line === undefined) throw paramError("line is missing");
    const { project, commit } = await commitOfProject(principal, params.id, params.sha);
    if (project.archived) throw forbidden();
    const failed = body.note.trim() === "" ? "can't be blank" : body.note.length > MAX_NOTE ? `is too long (maximum is ${MAX_NOTE} characters)` : undefined;
    if (failed) throw new ApiError(400, { message: `Failed to save note {:note=>["${failed}"]}` });
    const position = body.path !== undefined && body.line !== undefined ? { path: body.path, line: body.line, lineType: body.line_type ?? "new" } : undefined;
    const placed = position && (await readRepository("project", project.id, project, (loc) => commitDiffHasLine(loc.storage, loc.relativePath, commit.id, position)));
    const note = await addCommitNote({
      projectId: project.id,
      commitId: commit.id,
      note: body.note,
      authorId: principal.user.id,
      path: placed ? position!.path : null,
      line: placed ? position!.line : null,
      lineType: placed ? position!.lineType : null,
    });
    await recordContribution(principal.user.id, project.id);
    return commitNoteView(c, { note, author: principal.user });
  },
);
export const handler = lambda(endpoint);
