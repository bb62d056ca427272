/**
 * The whole runtime killed (SIGKILL, stand-ins included) in the middle of a bulk move, then started
 * again on the same data folder: the Step Functions stand-in runs the interrupted execution again,
 * its idempotent steps pick each move up where it was, and every repository ends on the destination
 * only, unchanged and writable. The injected fault here only freezes the steps so the kill lands
 * mid-move; the crash itself is real.
 */
import { describe, it, expect } from "vitest";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startRuntime, defaultLocalConfig } from "../../local/runtime.js";
import { checksum, hashedRelativePath, repositoryExists } from "../../functions/hosting/domain/git/index.js";
import { fsck, repoPaths } from "../support/git.js";
import { call, commit, storageOf } from "./support.js";

const root = resolve(import.meta.dirname, "../..");
const token = "glpat-move-crash-test-token-01";
const PROJECTS = 12;

describe("a bulk move when the runtime is killed", () => {
  it("finishes every move after a restart, each repository on the destination only, unchanged and writable", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "forgeline-move-crash-"));
    // Batches of 4, so three batches run at once; the first switch freezes every step after it.
    const script = `
      const { startRuntime, defaultLocalConfig } = await import(${JSON.stringify(join(root, "local", "runtime.ts"))});
      const { injectMoveFaults } = await import(${JSON.stringify(join(root, "functions", "moves", "domain", "fault-injection.ts"))});
      const { checksum, hashedRelativePath } = await import(${JSON.stringify(join(root, "functions", "hosting", "domain", "git", "index.ts"))});
      const { findMoves } = await import(${JSON.stringify(join(root, "functions", "moves", "domain", "records.ts"))});
      const dataDir = ${JSON.stringify(dataDir)};
      const rt = await startRuntime({ dataDir, persistent: true, config: defaultLocalConfig(dataDir), bootstrapToken: ${JSON.stringify(token)} });
      const api = (method, path, body) => fetch(rt.baseUrl + path, { method, headers: { "Private-Token": ${JSON.stringify(token)}, "Content-Type": "application/json" }, body: body && JSON.stringify(body) }).then((r) => r.json());
      const before = {};
      for (let i = 0; i < ${PROJECTS}; i++) {
        const p = await api("POST", "/api/v4/projects", { name: "crash-" + i, initialize_with_readme: true });
        before[p.id] = await checksum("default", hashedRelativePath("project", p.id));
      }
      let frozen = false;
      injectMoveFaults(async (task, phase, input) => {
        if (!frozen && task === "moveSwitch" && phase === "after") {
          frozen = true;
          const states = (await findMoves(input.moves)).map((m) => m.state);
          console.log("FROZEN " + JSON.stringify({ before, states }));
        }
        if (frozen) await new Promise(() => {});
      });
      await api("POST", "/api/v4/project_repository_storage_moves", { source_storage_name: "default", destination_storage_name: "secondary" });`;
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      cwd: root,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, FORGELINE_MOVE_BATCH_SIZE: "4" },
    });
    let output = "";
    child.stderr!.on("data", (d) => (output += d));
    let restarted: Awaited<ReturnType<typeof startRuntime>> | undefined;
    try {
      const { before, states } = await new Promise<{ before: Record<string, string>; states: string[] }>((ok, fail) => {
        child.stdout!.on("data", (d) => {
          output += d;
          const line = output.split("\n").find((l) => l.startsWith("FROZEN "));
          if (line) ok(JSON.parse(line.slice("FROZEN ".length)) as { before: Record<string, string>; states: string[] });
        });
        child.once("exit", () => fail(new Error(`runtime exited:\n${output}`)));
      });
      // The kill lands with one batch switched but not cleaned up, the others before their switch.
      expect(states.length).toBeGreaterThan(0);
      expect(states.every((state) => state === "replicated")).toBe(true);
      process.kill(-child.pid!, "SIGKILL");
      await new Promise((r) => child.once("exit", r));

      restarted = await startRuntime({ dataDir, persistent: true, config: defaultLocalConfig(dataDir), bootstrapToken: token });
      await restarted.settle();
      const client = { baseUrl: restarted.baseUrl, token };
      const moves = (await call<Array<{ state: string; error_message: string | null; project: { id: number } }>>(client, "GET", "/api/v4/project_repository_storage_moves?per_page=100")).body;
      const ids = Object.keys(before).map(Number);
      expect(moves.filter((m) => ids.includes(m.project.id)).map((m) => `${m.project.id}: ${m.state} ${m.error_message ?? ""}`.trim())).toEqual(
        expect.arrayContaining(ids.map((id) => `${id}: finished`)),
      );
      for (const id of ids) {
        const rel = hashedRelativePath("project", id);
        expect(await storageOf("project", id)).toBe("secondary");
        expect(await checksum("secondary", rel)).toBe(before[id]);
        for (const dir of repoPaths("secondary", "project", id)) fsck(dir);
        expect(await repositoryExists("default", rel)).toBe(false);
        expect((await commit(client, id, "writable after the crash")).status).toBe(201);
      }
    } finally {
      await restarted?.stop();
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, "SIGKILL");
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
