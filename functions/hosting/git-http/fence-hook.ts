/**
 * Fencing for the refs git itself moves (a push), as `git/writer.ts` fences the refs API writes move.
 * git runs its `reference-transaction` hook once a ref update holds its ref locks ("prepared"), and a
 * non-zero exit aborts that update. The hook asks this process, over a Unix socket in a private
 * folder (mode 0700, so only this user's processes reach it), to prove the push still holds its
 * repository write lease (the write path's `fence`: a conditional renewal); when it does not — it
 * expired or another writer took over — the ref does not move and git reports the push rejected.
 *
 * A project's push also gets a `pre-receive` hook, GitLab's place for its access checks: once the
 * pack is received (its objects in quarantine) and before any ref moves, it sends every ref update
 * with whether it is a force push (the new commit does not descend from the old, `git merge-base
 * --is-ancestor`) to this process's `check`; a refusal is printed as GitLab prints it (`remote:
 * GitLab: <why>`) and the whole push is declined (`! [remote rejected] main -> main (pre-receive hook
 * declined)`), nothing written.
 */
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isOutOfSpace, STORAGE_FULL_MESSAGE } from "../../platform/out-of-space.js";
import { describeError, log } from "../../platform/log.js";
import type { RefChange } from "../domain/protected-refs.js";

export interface FenceHooks {
  /** The folder to give git as `core.hooksPath`: only the reference-transaction hook is in it, and a project's pre-receive hook. */
  hooksPath: string;
  close(): Promise<void>;
}

/**
 * The hooks' client: one request on the socket (`fence`, or `check` followed by the ref updates on
 * its stdin), exit 0 on `ok`, else print the reason and exit 1.
 */
const CLIENT = [
  `const s = require("node:net").connect(process.argv[1]); let a = "";`,
  `s.on("data", (d) => (a += d));`,
  `s.on("end", () => { if (a.startsWith("ok")) process.exit(0); process.stderr.write((a.slice(5).trim() || "the push lost its write lease") + "\\n"); process.exit(1); });`,
  `s.on("error", (e) => { process.stderr.write("fence: " + e.message + "\\n"); process.exit(1); });`,
  `const v = process.argv[2] || "fence"; s.write(v + "\\n"); if (v === "check") process.stdin.pipe(s);`,
].join(" ");

/** What the hook prints (git shows it as a `remote:` line): the refusal's message, on one line. */
const lostReason = (err: unknown) =>
  (isOutOfSpace(err) ? STORAGE_FULL_MESSAGE : ((err as { body?: { message?: string } }).body?.message ?? String(err))).replace(/\s+/g, " ");

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

const FOLDER_PREFIX = "forgeline-fence-";
/** Twice Lambda's 15-minute limit: no push can still be using a folder this old. */
export const STALE_FENCE_FOLDER_MS = 30 * 60_000;

/**
 * Removes fence folders left by processes killed during a push (a hook script and a socket each; no
 * lock or data: the lease they served expires on its own). Age-based, because another process on
 * the same machine (another function, another instance) may be pushing right now.
 */
export async function sweepStaleFenceFolders(opts: { root?: string; minAgeMs?: number; now?: number } = {}): Promise<string[]> {
  const root = opts.root ?? tmpdir();
  const cutoff = (opts.now ?? Date.now()) - (opts.minAgeMs ?? STALE_FENCE_FOLDER_MS);
  const removed: string[] = [];
  for (const name of await readdir(root).catch(() => [] as string[])) {
    if (!name.startsWith(FOLDER_PREFIX)) continue;
    const path = join(root, name);
    const s = await stat(path).catch(() => undefined);
    if (!s?.isDirectory() || s.mtimeMs > cutoff) continue;
    await rm(path, { recursive: true, force: true });
    removed.push(path);
  }
  return removed;
}

/** Once per process, in the background: a push never waits for the sweep. */
let swept = false;

/**
 * The pre-receive hook: each update as `<old> <new> <ref> <forced>` (1 when a branch's new commit
 * does not descend from its old one), sent to `check`.
 */
const preReceive = (client: string) =>
  `#!/bin/sh\nwhile read o n r; do\n  f=0\n  case $r in refs/heads/*) case $o in *[!0]*) case $n in *[!0]*) git merge-base --is-ancestor "$o" "$n" 2>/dev/null || f=1;; esac;; esac;; esac\n  echo "$o $n $r $f"\ndone | ${client} check\n`;

const changeOf = (line: string): RefChange => {
  const [o, n, ref, forced] = line.split(" ");
  const given = (oid?: string) => (oid && /[^0]/.test(oid) ? oid : undefined);
  return { ref: ref!, old: given(o), new: given(n), forced: forced === "1" };
};

/**
 * The hooks of one push: the fence, and with `check` (a project's repository) the pre-receive check,
 * which answers GitLab's refusal of the push or undefined.
 */
export async function fenceHooks(fence: () => Promise<void>, check?: (changes: RefChange[]) => Promise<string | undefined>): Promise<FenceHooks> {
  if (!swept) {
    swept = true;
    void sweepStaleFenceFolders().catch(() => undefined);
  }
  const dir = await mkdtemp(join(tmpdir(), FOLDER_PREFIX));
  const socket = join(dir, "fence.sock");
  const server = createServer({ allowHalfOpen: true }, (conn) => {
    conn.on("error", () => undefined);
    conn.setEncoding("utf8");
    let text = "";
    conn.on("data", (d) => {
      text += d;
      if (text === "fence\n") {
        fence().then(
          () => conn.end("ok\n"),
          (err: unknown) => conn.end(`lost ${lostReason(err)}\n`),
        );
      }
    });
    // `check`: the ref updates follow until the hook closes its side.
    conn.on("end", () => {
      if (!check || !text.startsWith("check\n")) return void conn.end();
      check(text.slice(6).split("\n").filter(Boolean).map(changeOf)).then(
        (refusal) => conn.end(refusal ? `deny GitLab: ${refusal}\n` : "ok\n"),
        (err: unknown) => {
          log.error("push check failed", describeError(err));
          conn.end("deny The push could not be checked. Please try again.\n");
        },
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socket, resolve);
  });
  const hooksPath = join(dir, "hooks");
  await mkdir(hooksPath);
  // Only "prepared" holds the locks; "committed" and "aborted" come after the fact. The ref list on
  // stdin is read and dropped so git never writes into a closed pipe.
  const client = `${shellQuote(process.execPath)} -e ${shellQuote(CLIENT)} ${shellQuote(socket)}`;
  const hook = `#!/bin/sh\n[ "$1" = prepared ] || { cat >/dev/null; exit 0; }\ncat >/dev/null\nexec ${client}\n`;
  await writeFile(join(hooksPath, "reference-transaction"), hook, { mode: 0o755 });
  if (check) await writeFile(join(hooksPath, "pre-receive"), preReceive(client), { mode: 0o755 });
  return {
    hooksPath,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
