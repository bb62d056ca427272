/**
 * GitLab's `send_git_blob`, shared by every raw route (repository files and blobs, snippet files):
 * the bytes as plain text, never rendered by the browser, with the file's name in
 * `Content-Disposition` when there is one (a blob fetched by its id has none).
 */
import type { Context } from "hono";
import { contentDisposition } from "../../platform/http/header-names.js";

export function rawText(c: Context, content: Buffer, filePath?: string): Response {
  c.header("Content-Type", "text/plain; charset=utf-8");
  c.header("X-Content-Type-Options", "nosniff");
  c.header("Content-Disposition", contentDisposition("inline", filePath === undefined ? undefined : inlineName(filePath)));
  return c.body(new Uint8Array(content), 200);
}

/**
 * The name a browser is given: the file's own, except that an `.xhtml` one is cut at its first dot,
 * as GitLab cuts it, since some browsers render a file named so as a page whatever its type says.
 */
function inlineName(filePath: string): string {
  const name = filePath.slice(filePath.lastIndexOf("/") + 1);
  return name.endsWith(".xhtml") ? name.split(".")[0]! : name;
}
