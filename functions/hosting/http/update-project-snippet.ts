import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { paramError } from "../../platform/http/errors.js";
import { writableProjectSnippet } from "../domain/project-snippets.js";
import { snippetFiles, updateSnippet, type Snippet, type SnippetFileAction } from "../domain/snippets.js";
import { projectSnippetParams, renderProjectSnippet, requireSomeChange, snippetChangesBody } from "./snippet-common.js";

/**
 * The author, Maintainers and above. Besides `files` actions, GitLab still accepts the single-file
 * form: `content` replaces the first file's content, `file_name` renames it (both in one commit).
 */
export const endpoint = defineEndpoint(
  {
    summary: "Update a project snippet",
    access: "write",
    params: projectSnippetParams,
    body: z.object({ ...snippetChangesBody.shape, file_name: z.optional(z.string().check(z.minLength(1), z.maxLength(4096))), content: z.optional(z.string()) }),
  },
  async ({ c, principal, params, body }) => {
    const { file_name, content, ...changes } = body;
    const singleFile = file_name !== undefined || content !== undefined;
    if (!singleFile) requireSomeChange(changes, ["file_name", "content"]);
    if (changes.files && singleFile) throw paramError("files, content are mutually exclusive");
    const { project, snippet } = await writableProjectSnippet(principal, params.id, params.snippet_id);
    let files: SnippetFileAction[] | undefined = changes.files;
    if (singleFile) files = await singleFileChange(snippet, file_name, content);
    const updated = await updateSnippet(principal, snippet, { ...changes, files });
    return renderProjectSnippet(c, principal, project, updated);
  },
);
export const handler = lambda(endpoint);

/** The legacy single-file edit as file actions on the snippet's first file. */
async function singleFileChange(snippet: Snippet, fileName: string | undefined, content: string | undefined): Promise<SnippetFileAction[]> {
  const [first] = await snippetFiles(snippet);
  if (first === undefined) return fileName && content !== undefined ? [{ action: "create", file_path: fileName, content }] : [];
  const actions: SnippetFileAction[] = [];
  const path = fileName ?? first;
  if (path !== first) actions.push({ action: "move", previous_path: first, file_path: path });
  if (content !== undefined) actions.push({ action: "update", file_path: path, content });
  return actions;
}
