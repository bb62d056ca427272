/**
 * The crash matrix: the whole runtime (stand-ins included) SIGKILLed at each step of a move —
 * scheduled, started, copying, replicated, cleanup — in the middle of a commit, and in the middle of
 * a push made with the git CLI (while git receives the pack, and while it indexes it), then started
 * again on the same data folder. After each restart:
 * - every move is terminal (finished), and a move scheduled right after the restart finishes without
 *   waiting for the dead writer's lease;
 * - every repository is writable at once: the runtime runs with `FORGELINE_WRITE_WAIT_MS=0`, so a
 *   write that had to wait for a lease would answer 409 — a 201 is a first-attempt success — while
 *   leases last 10 minutes (`FORGELINE_WRITE_LEASE_MS`), so no lease simply expired meanwhile;
 * - no acknowledged commit is lost, no temporary folder is left on any storage or replica, nor any
 *   of git's leftovers inside a repository (a killed push's `objects/tmp_objdir-incoming-*`,
 *   `objects/pack/tmp_pack_*`), `git fsck` is clean on every copy, and the killed push, pushed
 *   again, lands.
 * One data folder and one process per restart: each process checks the crash before it and is then
 * killed for the next row, so the matrix costs one runtime start per row.
 */
import { describe, it, expect } from "vitest";
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startCrashableRuntime, type CrashableRuntime } from "../support/crashable-runtime.js";
import { until } from "../support/processes.js";
import { call, waitForMove } from "./support.js";
import { clientGit, deltaChains, gitLeftoversIn, indexPackRunning, manyBlobs, quarantinedFiles, stallingProxy, startPush } from "./crash-pushes.js";

const token = "glpat-crash-matrix-test-token-01";

const startIncarnation = (dataDir: string) => startCrashableRuntime(dataDir, { token, env: { FORGELINE_WRITE_WAIT_MS: "0", FORGELINE_WRITE_LEASE_MS: "600000" } });

/** Every folder below `dir` whose name says it is temporary, every bare repository, and git's leftovers in them. */
function walk(dir: string, out = { temporary: [] as string[], repositories: [] as string[], gitLeftovers: [] as string[] }) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.name.includes("tmp_forgeline_")) out.temporary.push(path);
    else if (entry.isDirectory() && entry.name.endsWith(".git")) {
      out.repositories.push(path);
      out.gitLeftovers.push(...gitLeftoversIn(path));
    } else if (entry.isDirectory()) walk(path, out);
  }
  return out;
}

const storagesOf = (dataDir: string) => walk(join(dataDir, "storages"));
const hashOf = (id: number) => createHash("sha256").update(String(id)).digest("hex");

/**
 * The git CLI run without blocking the event loop: a blocked loop would miss the runtime closing an
 * idle keep-alive connection and send the next request on a dead socket.
 */
const git = (dir: string, ...args: string[]) =>
  new Promise<string>((ok, fail) => execFile("git", ["--git-dir", dir, ...args], (err, stdout, stderr) => (err ? fail(new Error(`git ${args.join(" ")} in ${dir}: ${stderr}`)) : ok(stdout))));
const fsck = (dir: string) => git(dir, "fsck", "--strict", "--no-progress");
const commitSubjects = async (dir: string) => (await git(dir, "log", "--format=%s", "main")).trim().split("\n");

type Project = { id: number; path: string; storage?: string };

describe("the runtime SIGKILLed at each step of a move, during a commit and during a push, then started again", () => {
  it("leaves every move terminal, every repository writable at once, no acknowledged write lost, no temporary folder nor git leftover, git fsck clean, the push landing when pushed again", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "forgeline-crash-matrix-"));
    const acknowledged = new Map<number, string[]>();
    const moves: number[] = [];
    let current: CrashableRuntime | undefined;
    const api = <T = any>(method: string, path: string, body?: unknown) => call<T>(current!.client, method, path, { body });

    /** A commit to every project, each acknowledged (201) — proving it writable and giving the next crash something to lose. */
    const commitToAll = async (projects: Project[], label: string) => {
      for (const p of projects) {
        const message = `${label} ${p.id}`;
        const res = await api("POST", `/api/v4/projects/${p.id}/repository/commits`, { branch: "main", commit_message: message, actions: [{ action: "create", file_path: `${label.replace(/\W/g, "-")}.txt`, content: message }] });
        expect(res.status, `${message}: ${res.text}`).toBe(201);
        acknowledged.set(p.id, [...(acknowledged.get(p.id) ?? []), message]);
      }
    };
    const schedule = async (id: number, destination: string) => {
      const res = await api("POST", `/api/v4/projects/${id}/repository_storage_moves`, { destination_storage_name: destination });
      expect(res.status, res.text).toBe(201);
      moves.push(res.body.id);
      return res.body.id as number;
    };
    /** What must hold after every restart. */
    const checkRecovered = async (projects: Project[], label: string) => {
      // Every move the runtime knows of, read back rather than taken from the scheduling answers: a
      // move scheduled right before a crash exists although its answer was lost with the connection.
      const known: number[] = [];
      for (const p of projects) known.push(...(await api<Array<{ id: number }>>("GET", `/api/v4/projects/${p.id}/repository_storage_moves`)).body.map((m) => m.id));
      expect(known, `moves after ${label}`).toEqual(expect.arrayContaining(moves));
      for (const id of known) expect((await waitForMove(current!.client, "project", id, 120_000)).state, `move ${id} after ${label}`).toBe("finished");
      const disk = storagesOf(dataDir);
      // Soft: a leftover fails the test but the matrix goes on, so one run shows every row that leaves one.
      expect.soft(disk.temporary, `temporary folders after ${label}`).toEqual([]);
      expect.soft(disk.gitLeftovers, `git's leftovers after ${label}`).toEqual([]);
      for (const dir of disk.repositories) await fsck(dir);
      for (const p of projects) {
        p.storage = (await api("GET", `/api/v4/projects/${p.id}`)).body.repository_storage;
        for (const dir of disk.repositories.filter((d) => d.includes(`/${p.storage}`) && d.endsWith(`${hashOf(p.id)}.git`))) {
          expect(await commitSubjects(dir), `acknowledged commits of project ${p.id} in ${dir}`).toEqual(expect.arrayContaining(acknowledged.get(p.id)!));
        }
      }
    };

    /** Arms the fault point, starts what reaches it, waits until it froze there, and kills everything. */
    const crashAt = async (point: string, phase: string, action: () => Promise<unknown>, expectDebris = false) => {
      await current!.arm(point, phase);
      action().catch(() => undefined); // a request in flight when the runtime dies gets no answer
      await current!.frozen();
      if (expectDebris) expect(storagesOf(dataDir).temporary.length, `temporary folders at ${point} ${phase}`).toBeGreaterThan(0);
      await current!.kill();
      current = await startIncarnation(dataDir);
    };

    try {
      current = await startIncarnation(dataDir);
      const projects: Project[] = [];
      for (let i = 0; i < 6; i++) {
        const res = await api("POST", "/api/v4/projects", { name: `crash-${i}`, initialize_with_readme: true });
        expect(res.status, res.text).toBe(201);
        projects.push({ id: res.body.id, path: res.body.path_with_namespace });
        acknowledged.set(res.body.id, ["Initial commit"]);
      }
      const [scheduled, started, copying, replicated, spare, pushed] = projects as [Project, Project, Project, Project, Project, Project];
      await commitToAll(projects, "before any crash");

      const rows: Array<{ step: string; point: string; phase: string; action: () => Promise<unknown>; debris?: boolean }> = [
        { step: "scheduled", point: "moveStart", phase: "before", action: () => schedule(scheduled.id, "cluster") },
        { step: "started", point: "moveStart", phase: "after", action: () => schedule(started.id, "cluster") },
        { step: "copying", point: "moveReplicate", phase: "copied", action: () => schedule(copying.id, "cluster"), debris: true },
        { step: "replicated", point: "moveSwitch", phase: "after", action: () => schedule(replicated.id, "cluster") },
        // Off the three-replica cluster: a copy renamed for deletion on every replica.
        { step: "cleanup", point: "moveCleanup", phase: "deleting", action: () => schedule(copying.id, "secondary"), debris: true },
      ];
      for (const row of rows) {
        await crashAt(row.point, row.phase, row.action, row.debris);
        await checkRecovered(projects, `a crash at ${row.step}`);
        await commitToAll(projects, `after a crash at ${row.step}`);
      }

      // During a commit: killed while holding the lease and the branch's ref lock, right before the ref moves.
      await crashAt("repositoryWrite", "fence", () =>
        api("POST", `/api/v4/projects/${spare.id}/repository/commits`, { branch: "main", commit_message: "in flight", actions: [{ action: "create", file_path: "in-flight.txt", content: "x" }] }),
      );
      // A move scheduled right after the restart does not wait for the dead writer.
      const after = await schedule(spare.id, "cluster");
      const done = await waitForMove(current.client, "project", after, 120_000);
      expect(done.state).toBe("finished");
      const history = (await api("GET", `/api/v4/project_repository_storage_moves/${after}/execution`)).body.history as Array<{ step: string }>;
      expect(history.map((h) => h.step)).not.toContain("waiting for writes to drain");
      await checkRecovered(projects, "a crash during a commit");
      await commitToAll(projects, "after a crash during a commit");

      // During a push, made with the git CLI: killed while git receives it, then while it indexes it.
      const clients = join(dataDir, "clients");
      mkdirSync(clients);
      const [blobs, chains] = [join(clients, "blobs.git"), join(clients, "chains.git")];
      const heads = { [blobs]: await manyBlobs(clients, blobs), [chains]: await deltaChains(clients, chains) };
      const remote = (baseUrl: string) => {
        const url = new URL(`${baseUrl}/${pushed.path}.git`);
        [url.username, url.password] = ["oauth2", token];
        return url.toString();
      };
      const pushedRepository = () => storagesOf(dataDir).repositories.find((d) => d.endsWith(`${hashOf(pushed.id)}.git`))!;
      /** After the restart: the same push again lands whole, at once. */
      const pushAgain = async (from: string, branch: string) => {
        await clientGit(clients, from, "push", "-q", remote(current!.client.baseUrl), `main:refs/heads/${branch}`);
        expect((await git(pushedRepository(), "rev-parse", `refs/heads/${branch}`)).trim(), `${branch} pushed again`).toBe(heads[from]);
        await fsck(pushedRepository());
      };

      // Receiving: the upload stops 2 MiB into a 7 MiB pack; index-pack waits with the pack half written.
      const proxy = await stallingProxy(current.client.baseUrl, 2 * 1024 * 1024);
      const receiving = startPush(clients, blobs, remote(proxy.baseUrl), "main:refs/heads/received");
      const halfWritten = () => quarantinedFiles(pushedRepository()).some((f) => /\/pack\/tmp_pack_/.test(f.path) && f.size > 0);
      expect(await until(halfWritten, 120_000), "a pack being received into the push's quarantine").toBe(true);
      current.freeze();
      expect(indexPackRunning(current.pgid), "index-pack receiving").toBe(true);
      await current.kill();
      proxy.close();
      expect((await receiving.done).code, "the push killed while git received it").not.toBe(0);
      current = await startIncarnation(dataDir);
      await checkRecovered(projects, "a crash while git received a push");
      await pushAgain(blobs, "received");

      // Indexing: the upload is over and index-pack rebuilds hundreds of deltas (`Resolving deltas`).
      const indexing = startPush(clients, chains, remote(current.client.baseUrl), "main:refs/heads/indexed");
      await indexing.printed(/Resolving deltas/);
      current.freeze();
      expect(indexPackRunning(current.pgid), "index-pack still indexing when frozen").toBe(true);
      expect(quarantinedFiles(pushedRepository()).map((f) => f.path), "the pack in the quarantine, still under index-pack's temporary name").toEqual(expect.arrayContaining([expect.stringMatching(/\/pack\/tmp_pack_/)]));
      await current.kill();
      expect((await indexing.done).code, "the push killed while git indexed it").not.toBe(0);
      current = await startIncarnation(dataDir);
      await checkRecovered(projects, "a crash while git indexed a push");
      await pushAgain(chains, "indexed");

      await commitToAll(projects, "after a crash during a push");
      await checkRecovered(projects, "the last commits");
    } finally {
      await current?.kill().catch(() => undefined);
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 900_000);
});
