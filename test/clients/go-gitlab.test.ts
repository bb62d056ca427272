/**
 * go-gitlab (Debian's golang-github-xanzy-go-gitlab-dev, 0.73) built from `go-gitlab/main.go` and
 * run against the service: CreateProject with RepositoryStorage places the project there, and
 * EditProject with another storage moves it, as GitLab does. Part of `npm run test:clients`; a
 * machine without Go or the library fails here with the command that installs them.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { ownRuntime } from "../support/own-runtime.js";
import { requireTool } from "./tools.js";

const run = promisify(execFile);
const INSTALL = "sudo apt-get install golang-go golang-github-xanzy-go-gitlab-dev";
// Debian installs Go libraries as GOPATH sources; building in GOPATH mode needs no network.
const GOPATH = "/usr/share/gocode";

let instance: Awaited<ReturnType<typeof ownRuntime>>;
const work = mkdtempSync(join(tmpdir(), "forgeline-go-gitlab-"));
const binary = join(work, "go-gitlab-client");
const goEnv = { ...process.env, GO111MODULE: "off", GOPATH, GOCACHE: join(work, "cache"), GOFLAGS: "" };

beforeAll(async () => {
  requireTool("go", ["version"], INSTALL);
  if (!existsSync(join(GOPATH, "src/github.com/xanzy/go-gitlab"))) throw new Error(`go-gitlab is not installed here. Install it: ${INSTALL}`);
  await run("go", ["build", "-o", binary, join(import.meta.dirname, "go-gitlab", "main.go")], { env: goEnv });
  instance = await ownRuntime();
}, 300_000);
afterAll(async () => {
  await instance?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe("go-gitlab", () => {
  it("creates a project on a named storage and moves it by updating repository_storage", async () => {
    const { stdout } = await run(binary, [], { env: { ...process.env, GITLAB_URL: instance.runtime.baseUrl, GITLAB_TOKEN: instance.runtime.bootstrap.token! } });
    const seen = JSON.parse(stdout);
    expect(seen.name).toBe(seen.expected_name);
    expect(seen.created_storage).toBe("secondary");
    expect(seen.read_storage).toBe("secondary");
    expect(seen.moved_storage).toBe("default");
  });
});
