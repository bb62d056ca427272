/**
 * python-gitlab against isolated mode, where every answer comes from a function's Lambda bundle
 * invoked with API Gateway's event: a list walked page by page (`get_all=True`) follows the `Link`
 * headers, which must name the local server over plain HTTP, as they do in one process. Part of
 * `npm run test:clients`; the runtime builds the bundles (or links the last build, unchanged).
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { ownRuntime } from "../support/own-runtime.js";
import { DEBIAN_PYTHON, requireTool } from "./tools.js";

const buildDir = mkdtempSync(join(tmpdir(), "forgeline-bundles-"));
let instance: Awaited<ReturnType<typeof ownRuntime>>;

beforeAll(async () => {
  requireTool(DEBIAN_PYTHON, ["-c", "import gitlab"], "sudo apt-get install python3-gitlab");
  instance = await ownRuntime({}, { isolated: { buildDir } });
}, 600_000);

afterAll(async () => {
  await instance?.stop();
  rmSync(buildDir, { recursive: true, force: true });
});

describe("python-gitlab in isolated mode", () => {
  it("lists every project page by page, following the Link headers (get_all=True)", async () => {
    const { stdout } = await promisify(execFile)(DEBIAN_PYTHON, [join(import.meta.dirname, "list_all_pages.py")], {
      env: { ...process.env, GITLAB_URL: instance.runtime.baseUrl, GITLAB_TOKEN: instance.runtime.bootstrap.token! },
    });
    const seen = JSON.parse(stdout);
    expect(seen.python_gitlab).toMatch(/^\d+\./);
    expect(seen.created).toHaveLength(5);
    expect(seen.listed).toEqual(seen.created);
  });
});
