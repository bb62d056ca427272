/**
 * The file actions of GitLab's "create a commit with multiple files and actions" API, applied to a
 * `TreeEditor`. Error messages are the ones GitLab (Gitaly) returns for the same mistakes.
 */
import { gitFs as fs } from "./git-fs.js";
import { git } from "./engine.js";
import { GitActionError } from "./errors.js";
import type { TreeEditor } from "./tree-editor.js";

export interface CommitAction {
  action: "create" | "update" | "delete" | "move" | "chmod";
  file_path: string;
  previous_path?: string;
  content?: string;
  encoding?: "text" | "base64";
  execute_filemode?: boolean;
  /** The commit the caller believes last changed the file (update, move, delete): refused when it is not. */
  last_commit_id?: string;
}

const REGULAR = "100644";
const EXECUTABLE = "100755";

export async function applyAction(gitdir: string, editor: TreeEditor, action: CommitAction): Promise<void> {
  const path = splitPath(action.file_path);
  const current = await editor.get(path);
  switch (action.action) {
    case "create": {
      if (current?.kind === "dir") throw new GitActionError("A directory with this name already exists");
      if (current) throw new GitActionError("A file with this name already exists");
      const mode = action.execute_filemode ? EXECUTABLE : REGULAR;
      await editor.setLeaf(path, { kind: "leaf", mode, oid: await writeContent(gitdir, action) });
      return;
    }
    case "update": {
      if (current?.kind !== "leaf") throw fileMissing();
      // Keeps the existing mode (executable bit, symlink), as GitLab does.
      await editor.setLeaf(path, { ...current, oid: await writeContent(gitdir, action) });
      return;
    }
    case "delete": {
      if (current?.kind !== "leaf") throw fileMissing();
      await editor.remove(path);
      return;
    }
    case "chmod": {
      if (current?.kind !== "leaf") throw fileMissing();
      await editor.setLeaf(path, { ...current, mode: action.execute_filemode ? EXECUTABLE : REGULAR });
      return;
    }
    case "move": {
      if (action.previous_path === undefined || action.previous_path === "") {
        throw new GitActionError("You must provide the previous path of the file to move");
      }
      const from = splitPath(action.previous_path);
      const source = await editor.get(from);
      if (source?.kind !== "leaf") throw fileMissing();
      if (current) throw new GitActionError("A file with this name already exists");
      // Without new content a move keeps the file's bytes (GitLab: "content" is optional for move).
      const oid = action.content === undefined ? source.oid : await writeContent(gitdir, action);
      await editor.remove(from);
      await editor.setLeaf(path, { ...source, oid });
      return;
    }
    default:
      throw new GitActionError(`Unknown action '${String((action as { action: unknown }).action)}'`);
  }
}

function fileMissing(): GitActionError {
  return new GitActionError("A file with this name doesn't exist");
}

async function writeContent(gitdir: string, action: CommitAction): Promise<string> {
  return git.writeBlob({ fs, gitdir, blob: decodeContent(action) });
}

function decodeContent(action: CommitAction): Uint8Array {
  const content = action.content ?? "";
  if (action.encoding !== "base64") return Buffer.from(content, "utf8");
  const compact = content.replace(/\s+/g, "");
  // Buffer.from silently skips invalid characters; GitLab rejects such payloads instead.
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 === 1) {
    throw new GitActionError("Invalid base64 content");
  }
  return Buffer.from(compact, "base64");
}

/**
 * Splits a repository file path into components, refusing anything that could escape the tree or
 * plant a `.git` folder (git fsck --strict rejects those trees, and clients would execute hooks).
 */
export function splitPath(filePath: string): string[] {
  if (typeof filePath !== "string" || filePath === "") throw new GitActionError("You must provide a file path");
  const parts = filePath.split("/");
  if (parts.includes("..")) throw new GitActionError("Path cannot include directory traversal");
  const invalid =
    filePath.startsWith("/") ||
    /[\0\\]/.test(filePath) ||
    parts.some((p) => p === "" || p === "." || isDotGit(p));
  if (invalid) throw new GitActionError(`Invalid file path: ${filePath}`);
  return parts;
}

/** `.git` in any case, with the trailing dots/spaces Windows ignores (git's own `is_hfs/ntfs_dotgit`). */
function isDotGit(part: string): boolean {
  return /^\.git[. ]*$/i.test(part) || /^git~1$/i.test(part);
}
