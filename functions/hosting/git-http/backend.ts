/**
 * Git's own smart-HTTP server, `git http-backend`, run as a CGI program per request on the
 * repository's directory. The request body is piped into it and its output streamed back as it is
 * produced: packs are never held in memory. It inflates gzip request bodies itself (git sends
 * `Content-Encoding: gzip` for larger negotiations), and `GIT_PROTOCOL` carries the client's
 * protocol version, so v0, v1 and v2, shallow and partial clones are all git's own behaviour.
 */
import { spawn } from "node:child_process";
import { tmpdir } from "node:os";
import { basename, dirname } from "node:path";
import type { Readable } from "node:stream";
import type { GitStep } from "./paths.js";

export interface BackendRequest {
  /** The bare repository's directory. */
  gitdir: string;
  method: "GET" | "POST";
  step: GitStep;
  /** The query string without `?` (`service=git-upload-pack`). */
  query: string;
  contentType?: string;
  contentLength?: string;
  contentEncoding?: string;
  /** The `Git-Protocol` request header (`version=2`). */
  gitProtocol?: string;
  /** Set only when the caller may push: http-backend serves receive-pack to an authenticated user alone. */
  remoteUser?: string;
  /** A push's hooks (`fence-hook.ts`); every other request runs none. */
  hooksPath?: string;
  body?: Readable;
}

export interface BackendResponse {
  status: number;
  headers: Headers;
  body: AsyncIterable<Buffer>;
  /** Resolves with git's exit code once it has finished (after the body was read to its end). */
  exited: Promise<number>;
}

/** The git executable: on PATH locally; on Lambda the layer puts it in `/opt/bin`, which is on PATH too. */
const gitBinary = () => process.env.FORGELINE_GIT_BINARY || "git";

/** Configuration given to git on its command line (so neither a system nor a user config applies). */
function configFor(request: BackendRequest): Array<[string, string]> {
  return [
    // Repositories on a shared file system (EFS) may belong to another uid than the function's.
    ["safe.directory", "*"],
    ["http.receivepack", request.remoteUser ? "true" : "false"],
    ["uploadpack.allowFilter", "true"],
    ["uploadpack.allowAnySHA1InWant", "false"],
    // Packing is the housekeeping endpoint's job, not a push's; refs stay where the checksum reads them.
    ["receive.autogc", "false"],
    // A push runs only the fencing hook; a repository's own hooks never run.
    ["core.hooksPath", request.hooksPath ?? "/dev/null"],
  ];
}

export function environmentFor(request: BackendRequest): NodeJS.ProcessEnv {
  const config = configFor(request);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: tmpdir(),
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_TERMINAL_PROMPT: "0",
    GIT_PROJECT_ROOT: dirname(request.gitdir),
    PATH_INFO: `/${basename(request.gitdir)}/${request.step}`,
    GIT_HTTP_EXPORT_ALL: "1",
    REQUEST_METHOD: request.method,
    QUERY_STRING: request.query,
    GIT_CONFIG_COUNT: String(config.length),
  };
  config.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = key;
    env[`GIT_CONFIG_VALUE_${i}`] = value;
  });
  if (request.contentType) env.CONTENT_TYPE = request.contentType;
  if (request.contentLength) env.CONTENT_LENGTH = request.contentLength;
  if (request.contentEncoding) env.HTTP_CONTENT_ENCODING = request.contentEncoding;
  if (request.gitProtocol) env.GIT_PROTOCOL = request.gitProtocol;
  if (request.remoteUser) env.REMOTE_USER = request.remoteUser;
  return env;
}

/** Starts http-backend and resolves once its CGI headers are read; the rest of its output is the body. */
export async function runBackend(request: BackendRequest): Promise<BackendResponse> {
  const child = spawn(gitBinary(), ["http-backend"], { env: environmentFor(request), stdio: ["pipe", "pipe", "pipe"] });
  const exited = new Promise<number>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
  exited.catch(() => undefined);
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (text: string) => {
    if (stderr.length < 4096) stderr += text;
  });
  // A client that hangs up mid-request must not crash the process with EPIPE.
  child.stdin.on("error", () => undefined);
  if (request.body) request.body.pipe(child.stdin);
  else child.stdin.end();

  const output = child.stdout[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let head = Buffer.alloc(0);
  for (;;) {
    const end = headerEnd(head);
    if (end) {
      const { status, headers } = parseCgiHeaders(head.subarray(0, end.at).toString("latin1"));
      const rest = head.subarray(end.at + end.length);
      return { status, headers, body: bodyAfter(rest, output, () => child.kill("SIGTERM")), exited };
    }
    const next = await output.next();
    if (next.done) {
      const code = await exited.catch(() => 1);
      throw new Error(`git http-backend exited (${code}) before its headers: ${stderr.trim().slice(0, 300)}`);
    }
    head = Buffer.concat([head, next.value]);
  }
}

/** CGI headers end at the first empty line; http-backend writes `\r\n`, CGI allows `\n`. */
function headerEnd(buffer: Buffer): { at: number; length: number } | undefined {
  const crlf = buffer.indexOf("\r\n\r\n");
  const lf = buffer.indexOf("\n\n");
  if (crlf >= 0 && (lf < 0 || crlf < lf)) return { at: crlf, length: 4 };
  return lf >= 0 ? { at: lf, length: 2 } : undefined;
}

export function parseCgiHeaders(text: string): { status: number; headers: Headers } {
  const headers = new Headers();
  let status = 200;
  for (const line of text.split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim();
    const value = line.slice(colon + 1).trim();
    if (name.toLowerCase() === "status") status = Number.parseInt(value, 10) || 500;
    else headers.append(name, value);
  }
  return { status, headers };
}

async function* bodyAfter(first: Buffer, rest: AsyncIterator<Buffer>, abort: () => void): AsyncGenerator<Buffer> {
  let finished = false;
  try {
    if (first.length > 0) yield first;
    for (;;) {
      const next = await rest.next();
      if (next.done) break;
      yield next.value;
    }
    finished = true;
  } finally {
    // The reader stopped early (the client went away): stop git rather than let it write into nothing.
    if (!finished) abort();
  }
}
