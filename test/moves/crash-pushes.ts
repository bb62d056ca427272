/**
 * Pushes for the crash matrix (`crash-matrix.test.ts`), made with the real git CLI, and the two ways
 * it holds git on the server at a known point of a push so the kill lands there:
 * - receiving: a loopback proxy between the client and the runtime stops forwarding the upload
 *   part-way, so index-pack waits with the pack half written;
 * - indexing: a history whose pack is quick to send but slow to index (hundreds of deltas of a
 *   768 KiB file, each rebuilt and hashed by index-pack once the upload is over); git says
 *   `Resolving deltas` when index-pack has read the whole pack and begins that work.
 */
import { execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { connect, createServer, type Socket } from "node:net";
import { join } from "node:path";
import { groupMembers } from "../support/processes.js";

/** git as a user runs it: no user or system configuration, no prompts. */
const clientEnv = (home: string) => ({
  PATH: process.env.PATH,
  HOME: home,
  GIT_TERMINAL_PROMPT: "0",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_COMMITTER_NAME: "Pusher",
  GIT_COMMITTER_EMAIL: "pusher@example.com",
});

export function clientGit(home: string, cwd: string, ...args: string[]): Promise<string> {
  return new Promise((ok, fail) =>
    execFile("git", args, { cwd, env: clientEnv(home), maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => (err ? fail(new Error(`git ${args.join(" ")}: ${stderr}`)) : ok(stdout))),
  );
}

/** Feeds `git fast-import` the given commits on `main` of a new bare repository; resolves with its head. */
async function fastImport(home: string, dir: string, commits: Iterable<Array<{ path: string; data: Buffer }>>): Promise<string> {
  await clientGit(home, home, "init", "-q", "--bare", dir);
  const child = spawn("git", ["fast-import", "--quiet"], { cwd: dir, env: clientEnv(home), stdio: ["pipe", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const exited = new Promise<number>((ok) => child.once("close", (code) => ok(code ?? 1)));
  const write = (chunk: string | Buffer) => (child.stdin.write(chunk) ? Promise.resolve() : new Promise<void>((ok) => child.stdin.once("drain", () => ok())));
  let mark = 0;
  let time = 1_700_000_000;
  for (const files of commits) {
    const marks: string[] = [];
    for (const file of files) {
      await write(`blob\nmark :${++mark}\ndata ${file.data.length}\n`);
      await write(file.data);
      await write("\n");
      marks.push(`M 100644 :${mark} ${file.path}\n`);
    }
    const message = `pushed ${time}`;
    await write(`commit refs/heads/main\ncommitter Pusher <pusher@example.com> ${time++} +0000\ndata ${message.length}\n${message}\n${marks.join("")}\n`);
  }
  child.stdin.end();
  if ((await exited) !== 0) throw new Error(`git fast-import: ${stderr}`);
  return (await clientGit(home, dir, "rev-parse", "main")).trim();
}

/** One commit of 150 incompressible 48 KiB files: more objects than git unpacks loose, so index-pack writes a pack. */
export function manyBlobs(home: string, dir: string): Promise<string> {
  return fastImport(home, dir, [Array.from({ length: 150 }, (_, i) => ({ path: `blob-${i}.bin`, data: randomBytes(48 * 1024) }))]);
}

/** 400 versions of a 768 KiB file, each 32 bytes apart from the one before: a small pack of long delta chains. */
export function deltaChains(home: string, dir: string): Promise<string> {
  const file = randomBytes(768 * 1024);
  function* versions() {
    for (let i = 0; i < 400; i++) {
      randomBytes(32).copy(file, (i * 104_729) % (file.length - 32));
      yield [{ path: "big.bin", data: Buffer.from(file) }];
    }
  }
  return fastImport(home, dir, versions());
}

export interface RunningPush {
  /** Resolves once git's output (the remote's progress included) matches. */
  printed(pattern: RegExp): Promise<void>;
  /** git's exit code and output, once it ends. */
  done: Promise<{ code: number; output: string }>;
}

/** `git push --progress` from `dir`: the remote's progress lines are printed even without a terminal. */
export function startPush(home: string, dir: string, url: string, refspec: string): RunningPush {
  const child = spawn("git", ["push", "--progress", url, refspec], { cwd: dir, env: clientEnv(home), stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const waiters: Array<{ pattern: RegExp; ok: () => void }> = [];
  const take = (d: Buffer) => {
    output += d;
    for (const w of waiters.filter((x) => x.pattern.test(output))) w.ok();
  };
  child.stdout.on("data", take);
  child.stderr.on("data", take);
  const done = new Promise<{ code: number; output: string }>((ok) => child.once("close", (code) => ok({ code: code ?? 1, output })));
  return {
    printed: (pattern) =>
      new Promise((ok, fail) => {
        if (pattern.test(output)) return ok();
        waiters.push({ pattern, ok });
        void done.then(({ output: all }) => fail(new Error(`git push ended before printing ${pattern}:\n${all}`)));
      }),
    done,
  };
}

export interface StallingProxy {
  /** `http://127.0.0.1:<port>`: the runtime's base URL, through the proxy. */
  baseUrl: string;
  close(): void;
}

/**
 * A loopback TCP proxy to `target` that forwards everything the server sends, and what the client
 * sends only up to `uploadBytes` in all: past that it stops reading, and the upload stays where it
 * is, mid-pack.
 */
export async function stallingProxy(target: string, uploadBytes: number): Promise<StallingProxy> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  let forwarded = 0;
  const server = createServer((client) => {
    const upstream = connect(Number(port), hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("error", () => undefined);
      s.on("close", () => (client.destroy(), upstream.destroy()));
    }
    upstream.on("data", (d) => client.write(d));
    client.on("data", (d: Buffer) => {
      const room = uploadBytes - forwarded;
      forwarded += Math.min(room, d.length);
      upstream.write(d.subarray(0, room));
      // Read no more: the client's own buffers fill and git waits, mid-pack.
      if (d.length >= room) client.pause();
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const address = server.address() as { port: number };
  return {
    baseUrl: `http://127.0.0.1:${address.port}`,
    close() {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
}

/**
 * What git leaves in a repository while a push runs, and after it when it was killed: receive-pack's
 * quarantine folders (`objects/tmp_objdir-*`) and git's temporary pack files (`objects/pack/tmp_*`).
 * Read from the disk, independently of the service's own code.
 */
export function gitLeftoversIn(repo: string): string[] {
  const list = (dir: string) => (existsSync(dir) ? readdirSync(dir) : []);
  return [
    ...list(join(repo, "objects")).filter((n) => n.startsWith("tmp_objdir-")).map((n) => join(repo, "objects", n)),
    ...list(join(repo, "objects", "pack")).filter((n) => n.startsWith("tmp_")).map((n) => join(repo, "objects", "pack", n)),
  ];
}

/** The files in a push's quarantine folders (`…/tmp_objdir-incoming-…/pack/tmp_pack_…`) and their sizes. */
export function quarantinedFiles(repo: string): Array<{ path: string; size: number }> {
  const below = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? below(join(dir, e.name)) : [join(dir, e.name)]));
  return gitLeftoversIn(repo)
    .filter((path) => path.includes("tmp_objdir-"))
    .flatMap((dir) => below(dir))
    .map((path) => ({ path, size: statSync(path).size }));
}

/** Whether a `git index-pack` runs in the process group (the runtime's: it runs git). */
export function indexPackRunning(pgid: number): boolean {
  return groupMembers(pgid).some((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").includes("index-pack");
    } catch {
      return false;
    }
  });
}
