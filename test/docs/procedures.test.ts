/**
 * The documentation's procedures run as written. First, every shell block says in a comment before
 * it which test runs it verbatim (`<!-- procedure: <test file> -->`, and that test reads the block
 * from the same document) or why none does (`<!-- example: … -->`). Then the blocks this file owns
 * run verbatim, in the order a reader follows them, on an instance of their own (offered as
 * `hosted`, so integrated error tracking is on): the README walk-through, error tracking turned on,
 * an event from sentry-cli and one from `@sentry/node`, an alerting hook, and the outbound allowlist.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ownRuntime } from "../support/own-runtime.js";
import { codeBlocks, docFiles, readDoc, root, section } from "./support.js";

const SHELL = new Set(["bash", "sh", "shell", "console"]);

describe("every shell block of the documentation", () => {
  for (const file of docFiles()) {
    it(`${file}: is a procedure a named test runs, or says why it is not run`, () => {
      const problems: string[] = [];
      for (const block of codeBlocks(readDoc(file))) {
        const note = block.note ?? "";
        const where = `${file}:${block.line}`;
        if (note.startsWith("procedure:")) {
          for (const test of note.slice("procedure:".length).split(",").map((t) => t.trim())) {
            if (!existsSync(join(root, test))) problems.push(`${where}: ${test} does not exist`);
            else if (!readFileSync(join(root, test), "utf8").includes(`"${file}"`)) problems.push(`${where}: ${test} does not read ${file}`);
          }
        } else if (SHELL.has(block.language) && !/^example: \S/.test(note)) {
          problems.push(`${where}: a ${block.language} block without <!-- procedure: <test> --> or <!-- example: <why not run> -->`);
        }
      }
      expect(problems).toEqual([]);
    });
  }
});

/** Runs a script with bash, asynchronously: the instance answering it lives in this process. */
function bash(script: string, env: NodeJS.ProcessEnv): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile("bash", ["-c", script], { env, cwd: root, maxBuffer: 16 * 1024 * 1024, timeout: 120_000 }, (err, stdout, stderr) =>
      done({ status: err ? (typeof err.code === "number" ? err.code : 1) : 0, stdout, stderr }),
    );
  });
}

const run = (file: string, command: string[], env: NodeJS.ProcessEnv) =>
  new Promise<{ status: number; stdout: string; stderr: string }>((done) => {
    execFile(command[0]!, command.slice(1), { env, cwd: root, timeout: 120_000 }, (err, stdout, stderr) => done({ status: err ? 1 : 0, stdout, stderr: `${file}: ${stderr}` }));
  });

/** The lines of a block, continuation lines joined, without the one that reads the token file (the test supplies TOKEN and API). */
const commands = (code: string) =>
  code
    .replace(/\\\n\s*/g, "")
    .split("\n")
    .filter((l) => l.trim() && !l.startsWith("export TOKEN"));

const block = (file: string, heading: string, language = "bash") => {
  const found = codeBlocks(section(readDoc(file), heading)).filter((b) => b.language === language);
  expect(found, `${file} "${heading}"`).toHaveLength(1);
  return found[0]!.code;
};

describe("the procedures, verbatim, in a reader's order", () => {
  let instance: Awaited<ReturnType<typeof ownRuntime>>;
  let env: NodeJS.ProcessEnv;
  let home: string;
  const api = async (path: string) => {
    const res = await fetch(`${instance.runtime.baseUrl}/api/v4${path}`, { headers: { "Private-Token": env.TOKEN! } });
    return res.json() as Promise<any>;
  };
  const errors = async () => {
    const res = await fetch(`${instance.runtime.baseUrl}/platform/api/-/error_tracking.json`, { headers: { "Private-Token": env.TOKEN! } });
    return ((await res.json()) as { errors: { title: string; count: number }[] }).errors;
  };

  beforeAll(async () => {
    instance = await ownRuntime({ offering: "hosted" });
    home = mkdtempSync(join(tmpdir(), "forgeline-docs-"));
    // sentry-cli: no configuration file of the machine's, no update check.
    env = { ...process.env, TOKEN: instance.runtime.bootstrap.token!, API: `${instance.runtime.baseUrl}/api/v4`, HOME: home, SENTRY_LOAD_DOTENV: "0", SENTRY_DISABLE_UPDATE_CHECK: "true" };
  });
  afterAll(async () => {
    await instance?.stop();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it("README.md: the walk-through creates the project the other pages use", async () => {
    for (const line of commands(block("README.md", "Walk-through"))) expect((await bash(line, env)).status, line).toBe(0);
    expect(await api("/projects/platform%2Fapi")).toMatchObject({ path_with_namespace: "platform/api" });
  });

  it("docs/error-tracking.md: turning it on gives the project a client key with its DSN", async () => {
    const [settings, keys] = commands(block("docs/error-tracking.md", "Turning it on"));
    expect(JSON.parse((await bash(settings!, env)).stdout)).toMatchObject({ active: true, integrated: true });
    expect(JSON.parse((await bash(keys!, env)).stdout)).toEqual([expect.objectContaining({ active: true, sentry_dsn: expect.stringMatching(/^http:\/\/glet_[0-9a-f]{32}@127\.0\.0\.1:\d+\/api\/v4\/error_tracking\/collector\/\d+$/) })]);
  });

  it("docs/error-tracking.md: sentry-cli sends an event, listed with its filled-in title", async () => {
    const sent = await bash(block("docs/error-tracking.md", "sentry-cli"), env);
    expect(sent.status, sent.stderr).toBe(0);
    await expect.poll(async () => (await errors()).find((e) => e.title === "deploy of api failed")).toMatchObject({ count: 1 });
  });

  it("docs/error-tracking.md: the @sentry/node example reports its exception", async () => {
    const [key] = await api("/projects/platform%2Fapi/error_tracking/client_keys");
    const dir = mkdtempSync(join(root, "test/docs/.sdk-"));
    try {
      const app = join(dir, "app.mjs");
      writeFileSync(app, block("docs/error-tracking.md", "JavaScript on Node.js", "js"));
      const ran = await run(app, [process.execPath, app], { ...env, SENTRY_DSN: key.sentry_dsn });
      expect(ran.status, ran.stderr).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    await expect.poll(async () => (await errors()).find((e) => e.title.startsWith("SyntaxError:"))).toMatchObject({ count: 1 });
  });

  it("docs/error-tracking.md: an alerting hook is saved with its threshold (no event follows, so nothing is sent)", async () => {
    const [create] = commands(block("docs/error-tracking.md", "Alerts by webhook"));
    const hook = JSON.parse((await bash(create!, env)).stdout);
    expect(hook).toMatchObject({ url: "https://alerts.example.com/gitlab", error_tracking_events: true, error_tracking_events_threshold: 100, error_tracking_events_window: 3600, push_events: false });
    expect(hook).not.toHaveProperty("token");
  });

  it("docs/security.md: an administrator allowlists local tracker addresses", async () => {
    const [allow] = commands(block("docs/security.md", "Outbound requests"));
    expect(JSON.parse((await bash(allow!, env)).stdout)).toMatchObject({ outbound_local_requests_whitelist: ["sentry.lan", "10.0.5.0/24", "127.0.0.1:9000"] });
  });
});
