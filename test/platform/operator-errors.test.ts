/**
 * Operator mistakes with the local commands end in one line that says what happened and what to run,
 * exit code 1, and no stack trace: the data folder in use, a stale lock (taken over with a notice),
 * the port taken, no Java, an unwritable data folder. `npm run retention` joins a running instance,
 * as backup does.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, cpSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../local/ports.js";
import { acquireInstanceLock, runningInstance, runtimeInfoFile } from "../../local/instance-lock.js";
import { checkNodeVersion } from "../../local/node-version.js";
import { OperatorError, reportFatal } from "../../local/operator-errors.js";
import { alive, killed, until } from "../support/processes.js";
import { runScript, startScript, type Finished } from "../support/scripts.js";

const TOKEN = "glpat-operator-errors-test-token";
const folders: string[] = [];
const tempFolder = (name: string) => {
  const dir = mkdtempSync(join(tmpdir(), `forgeline-${name}-`));
  folders.push(dir);
  return dir;
};
afterAll(() => folders.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** The whole of what an operator sees: exactly one line, on standard error, and exit code 1. */
function expectOneLineError(run: Finished, pattern: RegExp) {
  expect(run.code).toBe(1);
  const lines = run.stderr.split("\n").filter((l) => l.trim() && !l.startsWith("Notice:"));
  expect(lines).toEqual([expect.stringMatching(pattern)]);
  expect(run.stderr).not.toMatch(/\n\s+at /); // no stack frame
}

/** A process that holds `dataDir`'s lock through the real code, as a starting runtime does. */
async function lockHolder(dataDir: string) {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "-e", `import("./local/instance-lock.ts").then((m) => { m.acquireInstanceLock(${JSON.stringify(dataDir)}, () => {}); console.log("held"); setInterval(() => {}, 1000); })`],
    { cwd: join(import.meta.dirname, "../.."), stdio: ["ignore", "pipe", "inherit"] },
  );
  await new Promise<void>((ok) => child.stdout!.on("data", (d: Buffer) => d.toString().includes("held") && ok()));
  return child;
}

describe("one-line errors for operator mistakes", () => {
  it("a data folder in use by another instance", async () => {
    const dataDir = tempFolder("in-use");
    const holder = await lockHolder(dataDir);
    try {
      const run = await runScript("start", { FORGELINE_DATA_DIR: dataDir, FORGELINE_PORT: String(await freePort()) });
      expectOneLineError(
        run,
        new RegExp(`^Error: the data folder ${dataDir} is in use by another Forgeline instance \\(pid ${holder.pid}\\) \\(still starting\\)\\. Stop it first \\(Ctrl-C in its terminal, or: kill ${holder.pid}\\), or use another folder: FORGELINE_DATA_DIR=<folder> npm start$`),
      );
    } finally {
      await killed(holder.pid!);
    }
  });

  it("a port taken by another program", async () => {
    const port = await freePort();
    const squatter: Server = await new Promise((ok) => {
      const s = createServer().listen(port, "127.0.0.1", () => ok(s));
    });
    try {
      const dataDir = tempFolder("port");
      const run = await runScript("start", { FORGELINE_DATA_DIR: dataDir, FORGELINE_PORT: String(port) });
      expectOneLineError(run, new RegExp(`^Error: port ${port} on 127\\.0\\.0\\.1 is already in use by another program\\. Stop that program, or choose another port: FORGELINE_PORT=<port> npm start$`));
      // The lock it took is given back: the folder is free for the next start.
      expect(runningInstance(dataDir)).toBeUndefined();
      expect(() => readFileSync(runtimeInfoFile(dataDir))).toThrow(/ENOENT/);
    } finally {
      squatter.close();
    }
  });

  it("a port that is not a number", async () => {
    const run = await runScript("start", { FORGELINE_DATA_DIR: tempFolder("nan-port"), FORGELINE_PORT: "http" });
    expectOneLineError(run, /^Error: FORGELINE_PORT=http is not a TCP port\. Set a number from 1 to 65535 \(0: any free port\), e\.g\. FORGELINE_PORT=3000 npm start$/);
  });

  it("no Java on the machine", async () => {
    // A PATH with node alone: `java` is not found there, and JAVA_HOME is unset.
    const bin = tempFolder("no-java-bin");
    symlinkSync(process.execPath, join(bin, "node"));
    const run = await runScript("start", { FORGELINE_DATA_DIR: tempFolder("no-java"), FORGELINE_PORT: String(await freePort()), PATH: bin, JAVA_HOME: undefined });
    expectOneLineError(run, /^Error: Java was not found, and the DynamoDB stand-in \(DynamoDB Local\) needs a Java 17\+ runtime\. Install it: sudo apt-get install openjdk-17-jre-headless .*or point JAVA_HOME at one$/);
  });

  it("a data folder that cannot be written", async () => {
    // A file where a folder should be: refused even for root, unlike file modes.
    const file = join(tempFolder("unwritable"), "not-a-folder");
    writeFileSync(file, "");
    const run = await runScript("start", { FORGELINE_DATA_DIR: join(file, "data"), FORGELINE_PORT: String(await freePort()) });
    expectOneLineError(run, /^Error: the data folder .*not-a-folder\/data cannot be written \(ENOTDIR: mkdir .*\)\. Make it writable for this user, or use another folder: FORGELINE_DATA_DIR=<folder> npm start$/);
  });

  it("names the command that was run in the fix", async () => {
    const dataDir = tempFolder("retention-in-use");
    mkdirSync(join(dataDir, "dynamodb"));
    const holder = await lockHolder(dataDir);
    try {
      // The holder never serves, so retention cannot join it and must not start a second instance.
      const run = await runScript("retention", { FORGELINE_DATA_DIR: dataDir });
      expectOneLineError(run, /in use by another Forgeline instance .* FORGELINE_DATA_DIR=<folder> npm run retention$/);
    } finally {
      await killed(holder.pid!);
    }
  });

  it("shows the stack of an unexpected error only with LOG_LEVEL=debug", () => {
    const lines: string[] = [];
    const saved = process.env.LOG_LEVEL;
    try {
      process.env.LOG_LEVEL = "info";
      expect(reportFatal(new TypeError("boom\nsecond line"), (l) => lines.push(l))).toBe(1);
      expect(lines).toEqual(["Error: TypeError: boom second line (run again with LOG_LEVEL=debug for the details)"]);
      lines.length = 0;
      process.env.LOG_LEVEL = "debug";
      expect(reportFatal(new OperatorError("it broke", "Do this"), (l) => lines.push(l))).toBe(1);
      expect(lines[0]).toBe("Error: it broke. Do this");
      expect(lines[1]).toMatch(/\n\s+at /);
    } finally {
      process.env.LOG_LEVEL = saved;
    }
  });
});

describe("stale locks", () => {
  it("takes over the lock of a process that is gone, one that reused the pid, and one copied from another folder", async () => {
    const dataDir = tempFolder("stale");
    const file = runtimeInfoFile(dataDir);
    const notices: string[] = [];
    const take = () => acquireInstanceLock(dataDir, (l) => notices.push(l));

    // Left by a crash: the pid no longer runs.
    const gone = spawn(process.execPath, ["-e", ""]);
    await new Promise((ok) => gone.once("exit", ok));
    writeFileSync(file, JSON.stringify({ pid: gone.pid, baseUrl: "http://127.0.0.1:1" }));
    take().release();
    expect(notices.pop()).toMatch(/^Notice: taking over .*runtime\.json from pid \d+: that process is no longer running/);

    // The pid is alive but started at another time: it is someone else now.
    const mine = take();
    const held = JSON.parse(readFileSync(file, "utf8"));
    mine.release();
    writeFileSync(file, JSON.stringify({ ...held, pid: process.ppid, pidStartedAt: "1" }));
    take().release();
    expect(notices.pop()).toMatch(/that pid now belongs to another process/);

    // Copied, with the data, from a folder whose instance still runs: this folder is free.
    const holder = await lockHolder(dataDir);
    const copy = tempFolder("stale-copy");
    rmSync(copy, { recursive: true });
    cpSync(dataDir, copy, { recursive: true });
    try {
      expect(() => take()).toThrow(OperatorError); // the original is in use
      acquireInstanceLock(copy, (l) => notices.push(l)).release();
      expect(notices.pop()).toMatch(/the lock was copied here from another data folder/);
    } finally {
      await killed(holder.pid!);
    }
  });
});

describe("npm start on a folder with a stale lock, joined by retention", () => {
  let dataDir: string;
  let started: Awaited<ReturnType<typeof startScript>>;
  let port: number;

  beforeAll(async () => {
    dataDir = tempFolder("joined");
    const gone = spawn(process.execPath, ["-e", ""]);
    await new Promise((ok) => gone.once("exit", ok));
    writeFileSync(join(dataDir, "runtime.json"), JSON.stringify({ pid: gone.pid, baseUrl: "http://127.0.0.1:1", env: {} }));
    port = await freePort();
    started = await startScript({ FORGELINE_DATA_DIR: dataDir, FORGELINE_PORT: String(port), FORGELINE_BOOTSTRAP_ADMIN_TOKEN: TOKEN });
  });
  afterAll(async () => {
    if (started && alive(started.child.pid!)) {
      process.kill(-started.child.pid!, "SIGINT");
      await started.exited;
    }
  });

  it("starts after a one-line notice", () => {
    const lines = started.output().split("\n");
    expect(lines.filter((l) => l.startsWith("Notice: taking over"))).toEqual([expect.stringMatching(/from pid \d+: that process is no longer running/)]);
    expect(started.output()).toContain(`Forgeline is running at http://127.0.0.1:${port}`);
    // No runtime warning: on Node 20 the one-line notice replaces the AWS SDK's, on 22 and 24 none.
    expect(started.output()).not.toMatch(/Warning/);
    expect(runningInstance(dataDir)?.pid).toBe(started.child.pid);
  });

  it("retention joins the running instance instead of failing", async () => {
    const run = await runScript("retention", { FORGELINE_DATA_DIR: dataDir });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`Retention on the instance running at http://127.0.0.1:${port} (pid ${started.child.pid}`);
    expect(run.stdout).toMatch(/retention: \d+ items and \d+ errors deleted — done/);
  });

  it("a second npm start on the same folder is refused in one line, and the first keeps serving", async () => {
    const run = await runScript("start", { FORGELINE_DATA_DIR: dataDir, FORGELINE_PORT: String(await freePort()) });
    expectOneLineError(run, new RegExp(`in use by another Forgeline instance \\(pid ${started.child.pid}\\) at http://127\\.0\\.0\\.1:${port}\\.`));
    const res = await fetch(`http://127.0.0.1:${port}/api/v4/version`, { headers: { "Private-Token": TOKEN } });
    expect(res.status).toBe(200);
    expect(await until(() => runningInstance(dataDir)?.pid === started.child.pid)).toBe(true);
  });
});

describe("Node.js versions", () => {
  it("says in one line that Node 20 is past its end of life, instead of the AWS SDK's warning", () => {
    const saved = process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED;
    const lines: string[] = [];
    try {
      delete process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED;
      checkNodeVersion((l) => lines.push(l), "v22.23.3");
      checkNodeVersion((l) => lines.push(l), "v24.21.0");
      expect(lines).toEqual([]);
      expect(process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED).toBeUndefined();
      checkNodeVersion((l) => lines.push(l), "v20.20.2");
      expect(lines).toEqual([expect.stringMatching(/^Notice: Node\.js v20\.20\.2 is past its end of life; Forgeline supports Node 22 and 24/)]);
      expect(process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED).toBe("true");
    } finally {
      if (saved === undefined) delete process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED;
      else process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = saved;
    }
  });
});
