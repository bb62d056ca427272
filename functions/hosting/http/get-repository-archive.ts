import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { ApiError, notFound, paramError } from "../../platform/http/errors.js";
import { bool } from "../../platform/http/params.js";
import { contentDisposition } from "../../platform/http/header-names.js";
import { ARCHIVE_FORMATS, archiveChunks, archivePrefix, archiveStream, resolveArchive, type ArchiveKind } from "../domain/git/index.js";
import { readRepository } from "../domain/read-path.js";
import { codeReader } from "./repository-access.js";

const archiveParams = z.object({ id: z.string().check(z.minLength(1), z.maxLength(512)), archive: z.string().check(z.maxLength(64)) });
const text = z.string().check(z.maxLength(4096));
const archiveQuery = z.object({
  sha: z.optional(text.check(z.minLength(1))),
  format: z.optional(z.string().check(z.maxLength(16))),
  path: z.optional(text),
  include_lfs_blobs: z.optional(bool()),
  /** Comma-separated, as Grape's array parameters also arrive. */
  exclude_paths: z.optional(text),
});

const EXTENSION: Record<ArchiveKind, string> = { tar: "tar", "tar.gz": "tar.gz", "tar.bz2": "tar.bz2", zip: "zip" };
/**
 * API Gateway's HTTP API carries at most 6 MB of answer, and the Lambda adapter sends binary bodies
 * base64-encoded (4 bytes per 3): 4.5 MiB of archive, less room for the headers.
 */
export const LAMBDA_ARCHIVE_LIMIT = 4_500_000;

/**
 * GitLab's "Get file archive": `archive` (tar.gz), or `archive.<format>` in any of GitLab's formats;
 * the folder `/repository/<anything else>` is no route (`404 Not Found`, as Grape answers). An
 * unknown ref or path is `404 File Not Found`, the error GitLab's endpoint rescues everything into.
 */
export const endpoint = defineEndpoint(
  { summary: "Get a repository archive", access: "public", params: archiveParams, query: archiveQuery },
  async ({ c, principal, params, query }) => {
    const match = /^archive(?:\.(.+))?$/.exec(params.archive);
    if (!match) throw new ApiError(404, { error: "404 Not Found" });
    const format = match[1] ?? query.format ?? "tar.gz";
    const kind = ARCHIVE_FORMATS[format];
    const { project } = await codeReader(principal, params.id, { denied: "forbidden" });
    if (!kind) throw paramError("format does not have a valid value");
    const request = { sha: query.sha, path: query.path, excludePaths: query.exclude_paths?.split(",") };
    const source = await readRepository("project", project.id, project, (loc) => resolveArchive(loc.storage, loc.relativePath, request));
    if (!source) throw notFound("File");
    const prefix = archivePrefix(project.path, source);
    c.header("Content-Type", kind === "zip" ? "application/zip" : "application/octet-stream");
    c.header("Content-Disposition", contentDisposition("attachment", `${prefix}.${EXTENSION[kind]}`));
    c.header("Content-Transfer-Encoding", "binary");
    c.header("Cache-Control", "private");
    const chunks = archiveChunks(source, prefix, kind);
    if (!process.env.AWS_LAMBDA_FUNCTION_NAME) return c.body(archiveStream(chunks), 200);
    return c.body(new Uint8Array(await withinLambdaLimit(chunks)), 200);
  },
);

/**
 * On AWS the adapter buffers the whole answer; an archive past the payload limit would fail after
 * the fact as a gateway 500. It is refused up front, in GitLab's shape, once it grows past the limit.
 */
async function withinLambdaLimit(chunks: AsyncGenerator<Buffer>): Promise<Buffer> {
  const held: Buffer[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    size += chunk.length;
    if (size > LAMBDA_ARCHIVE_LIMIT) {
      await chunks.return(undefined);
      throw new ApiError(413, { message: `413 Archive Too Large - over ${LAMBDA_ARCHIVE_LIMIT} bytes, the most one answer can carry here; narrow it with path or exclude_paths` });
    }
    held.push(chunk);
  }
  return Buffer.concat(held, size);
}
export const handler = lambda(endpoint);
