/**
 * Git over HTTP against `git http-backend` itself: the same git CLI clones a ~50 MB repository and
 * pushes 100 commits, once through this service (token auth, access checks, the write lease, the
 * replica mirror) and once through a minimal Node HTTP server that runs `git http-backend` on a bare
 * copy of the same repository, both on loopback in the same run. Values are seconds per operation
 * (median of three), lower is better.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { promisify } from "node:util";
import { runBackend } from "../functions/hosting/git-http/backend.js";
import { parseGitPath } from "../functions/hosting/git-http/paths.js";

interface Ctx {
  baseUrl: string;
  adminToken: string;
}

const execGit = promisify(execFile);
const FILES = 50;
const FILE_BYTES = 1024 * 1024;
const COMMITS = 100;
const TRIALS = 3;

function gitIn(home: string) {
  const env = { PATH: process.env.PATH, HOME: home, GIT_TERMINAL_PROMPT: "0", GIT_CONFIG_NOSYSTEM: "1", GIT_AUTHOR_NAME: "Bench", GIT_AUTHOR_EMAIL: "bench@example.com", GIT_COMMITTER_NAME: "Bench", GIT_COMMITTER_EMAIL: "bench@example.com" };
  return async (args: string[], cwd = home, input?: string) => {
    const child = execGit("git", args, { cwd, env, maxBuffer: 256 * 1024 * 1024 });
    if (input !== undefined) child.child.stdin!.end(input);
    return (await child).stdout;
  };
}

/** The baseline: `git http-backend` per request on `root/<name>.git`, nothing else. */
function plainBackendServer(root: string): Promise<Server> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const target = parseGitPath(url.pathname);
    if (!target || target.repository.kind !== "project") return void res.writeHead(404).end();
    runBackend({
      gitdir: join(root, `${target.repository.path}.git`),
      method: req.method === "POST" ? "POST" : "GET",
      step: target.step,
      query: url.search.slice(1),
      contentType: req.headers["content-type"],
      contentLength: req.headers["content-length"],
      contentEncoding: req.headers["content-encoding"],
      gitProtocol: req.headers["git-protocol"] as string | undefined,
      remoteUser: "bench",
      body: req.method === "POST" ? req : undefined,
    }).then(
      async (answer) => {
        res.writeHead(answer.status, Object.fromEntries(answer.headers));
        await new Promise<void>((resolve, reject) => Readable.from(answer.body).pipe(res).on("finish", resolve).on("error", reject));
      },
      () => res.writeHead(500).end(),
    );
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

/** `count` commits, each changing one small file, as a fast-import stream on top of `parent`. */
function commitStream(branch: string, parent: string, count: number, tag: string): string {
  let out = "";
  for (let i = 0; i < count; i++) {
    const content = `${tag} ${i} ${randomBytes(16).toString("hex")}\n`;
    const message = `${tag} ${i}\n`;
    out += `commit refs/heads/${branch}\ncommitter Bench <bench@example.com> ${1_700_000_000 + i} +0000\ndata ${Buffer.byteLength(message)}\n${message}`;
    if (i === 0) out += `from ${parent}\n`;
    out += `M 100644 inline changes/${tag}-${i % 10}.txt\ndata ${Buffer.byteLength(content)}\n${content}\n`;
  }
  return out;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return (performance.now() - t0) / 1000;
}

export async function run(ctx: Ctx) {
  const home = mkdtempSync(join(tmpdir(), "bench-git-http-"));
  const git = gitIn(home);
  let baselineServer: Server | undefined;
  try {
    // The repository: 50 files of 1 MiB incompressible bytes (a ~50 MB pack), one commit.
    const work = join(home, "work");
    mkdirSync(work);
    await git(["init", "-q", "-b", "main"], work);
    for (let i = 0; i < FILES; i++) writeFileSync(join(work, `blob-${i}.bin`), randomBytes(FILE_BYTES));
    await git(["add", "."], work);
    await git(["commit", "-q", "-m", "fifty megabytes"], work);
    const base = (await git(["rev-parse", "HEAD"], work)).trim();

    const res = await fetch(`${ctx.baseUrl}/api/v4/projects`, {
      method: "POST",
      headers: { "Private-Token": ctx.adminToken, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "git-http-bench", repository_storage: "default" }),
    });
    if (res.status !== 201) throw new Error(`project: ${res.status} ${await res.text()}`);
    const project = (await res.json()) as { http_url_to_repo: string };
    const ours = new URL(project.http_url_to_repo);
    ours.username = "oauth2";
    ours.password = ctx.adminToken;
    await git(["push", "-q", ours.toString(), "main"], work);

    const root = join(home, "served");
    mkdirSync(join(root, "bench"), { recursive: true });
    await git(["clone", "-q", "--bare", work, join(root, "bench", "repo.git")]);
    baselineServer = await plainBackendServer(root);
    const plain = `http://127.0.0.1:${(baselineServer.address() as AddressInfo).port}/bench/repo.git`;

    // Clones, alternating sides so both see the same machine load.
    const clone = { ours: [] as number[], plain: [] as number[] };
    for (let t = 0; t < TRIALS; t++) {
      for (const side of ["ours", "plain"] as const) {
        const dest = join(home, `clone-${side}-${t}`);
        clone[side].push(await timed(() => git(["clone", "-q", "--bare", side === "ours" ? ours.toString() : plain, dest])));
        rmSync(dest, { recursive: true, force: true });
      }
    }

    // Pushes of 100 new commits each (a fresh chain per push, so every push sends the same amount).
    const push = { ours: [] as number[], plain: [] as number[] };
    for (let t = 0; t < TRIALS; t++) {
      for (const side of ["ours", "plain"] as const) {
        const branch = `push-${side}-${t}`;
        await git(["fast-import", "--quiet"], work, commitStream(branch, base, COMMITS, branch));
        push[side].push(await timed(() => git(["push", "-q", side === "ours" ? ours.toString() : plain, `${branch}:refs/heads/${branch}`], work)));
      }
    }

    const note = "median of 3, loopback";
    return [
      { name: "Git over HTTP: clone of a 50 MB repository", baseline: "git http-backend behind a minimal Node server", value: median(clone.ours), baselineValue: median(clone.plain), unit: "s", higherIsBetter: false, note },
      { name: "Git over HTTP: push of 100 commits", baseline: "git http-backend behind a minimal Node server", value: median(push.ours), baselineValue: median(push.plain), unit: "s", higherIsBetter: false, note },
    ];
  } finally {
    baselineServer?.close();
    rmSync(home, { recursive: true, force: true });
  }
}
