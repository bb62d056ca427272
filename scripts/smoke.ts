/**
 * `npm run smoke`: `npm start` on a fresh temporary data folder, driven as the README's walk-through
 * does (version, a group, a project with a README, a commit, the list by storage), then stopped with
 * Ctrl-C. Fails on any runtime warning in what `npm start` printed. CI runs it on Node 24
 * (`scripts/with-node.sh 24 npm run smoke`), the line the whole suite does not run on.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { freePort } from "../local/ports.js";

const root = resolve(import.meta.dirname, "..");
const token = "glpat-smoke-test-token-0000000001";

function check(ok: boolean, what: string, detail = ""): void {
  if (!ok) throw new Error(`smoke: ${what}${detail ? `\n${detail}` : ""}`);
  console.log(`smoke: ok - ${what}`);
}

async function call(base: string, method: string, path: string, body?: unknown) {
  const res = await fetch(base + path, {
    method,
    headers: { "Private-Token": token, ...(body ? { "Content-Type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> & Array<Record<string, unknown>> };
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), "forgeline-smoke-"));
  const port = await freePort();
  const child = spawn("npm", ["start", "--silent"], {
    cwd: root,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, FORGELINE_DATA_DIR: dataDir, FORGELINE_PORT: String(port), FORGELINE_BOOTSTRAP_ADMIN_TOKEN: token },
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  // npm itself takes the terminal's SIGINT and ends by it; the runtime under it must exit 0.
  const exited = new Promise<boolean>((ok) => child.once("exit", (code, signal) => ok(code === 0 || signal === "SIGINT")));
  try {
    await new Promise<void>((ok, fail) => {
      child.stdout.on("data", () => output.includes("Press Ctrl-C") && ok());
      child.once("exit", () => fail(new Error(`smoke: npm start ended before serving:\n${output}`)));
    });
    const base = `http://127.0.0.1:${port}/api/v4`;
    console.log(`smoke: npm start serves on Node ${process.version}`);
    const version = await call(base, "GET", "/version");
    check(version.status === 200 && typeof version.body.version === "string", "GET /version", JSON.stringify(version));
    check((await call(base, "POST", "/groups", { name: "Platform", path: "platform" })).status === 201, "POST /groups");
    const project = await call(base, "POST", "/projects", { name: "api", namespace_id: "platform", initialize_with_readme: true });
    check(project.status === 201, "POST /projects", JSON.stringify(project));
    const commit = await call(base, "POST", "/projects/platform%2Fapi/repository/commits", {
      branch: "main",
      commit_message: "Add hello",
      actions: [{ action: "create", file_path: "hello.txt", content: "hi\n" }],
    });
    check(commit.status === 201 && commit.body.title === "Add hello", "POST …/repository/commits", JSON.stringify(commit));
    const listed = await call(base, "GET", "/projects?repository_storage=default");
    check(listed.status === 200 && listed.body.some((p) => p.path_with_namespace === "platform/api" && p.repository_storage === "default"), "GET /projects?repository_storage=default");
    process.kill(-child.pid!, "SIGINT");
    check((await exited) && output.includes("Stopped."), "Ctrl-C stops cleanly", output);
    check(!/warning/i.test(output), "no runtime warning in npm start's output", output);
    console.log("smoke: passed");
  } finally {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, "SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error((err as Error).message);
  process.exit(1);
});
