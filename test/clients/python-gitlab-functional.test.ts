/**
 * python-gitlab's own functional tests (v3.12.0, unchanged, see python-gitlab-functional/upstream.ts)
 * against a fresh runtime, in one pytest session as upstream runs them. Every test not listed in
 * NOT_YET_PASSING must pass; each listed one is reported with the feature it needs, and one that
 * starts passing fails this suite until it leaves the list (docs/gitlab-api.md's table mirrors it, and test/docs/figures.test.ts holds the two together).
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { ownRuntime } from "../support/own-runtime.js";
import { DEBIAN_PYTHON, requireTool } from "./tools.js";
import { runUpstream, upstreamFolder } from "./python-gitlab-functional/upstream.js";
import { FILES, NOT_YET_PASSING } from "./python-gitlab-functional/expectations.js";

let instance: Awaited<ReturnType<typeof ownRuntime>>;

beforeAll(async () => {
  requireTool(DEBIAN_PYTHON, ["-c", "import gitlab, pytest, responses, pytest_timeout"], "sudo apt-get install python3-gitlab python3-pytest python3-pytest-timeout python3-responses");
  upstreamFolder();
  instance = await ownRuntime({ offering: "hosted" });
});
afterAll(() => instance?.stop());

describe("python-gitlab's functional tests", () => {
  it(`pass where this service implements what they call (${FILES.join(", ")})`, { timeout: 1_800_000 }, async () => {
    const { results, output } = await runUpstream(FILES, { GITLAB_URL: instance.runtime.baseUrl, GITLAB_TOKEN: instance.runtime.bootstrap.token! });
    expect(results.length, output).toBeGreaterThan(0);
    const unexpected: string[] = [];
    for (const r of results) {
      const known = NOT_YET_PASSING[r.id];
      if (r.outcome === "passed" && known) unexpected.push(`${r.id} now passes: remove it from NOT_YET_PASSING and docs/gitlab-api.md's table`);
      if (r.outcome !== "passed" && !known) unexpected.push(`${r.id} ${r.outcome}: ${r.detail}`);
    }
    const count = (o: string) => results.filter((r) => r.outcome === o).length;
    console.log(`python-gitlab functional: ${count("passed")} passed, ${count("failed")} failed, ${count("skipped")} skipped of ${results.length}`);
    for (const r of results.filter((x) => x.outcome !== "passed")) console.log(`  ${r.outcome.padEnd(7)} ${r.id} — ${NOT_YET_PASSING[r.id] ?? r.detail}`);
    expect(unexpected, output.slice(-20_000)).toEqual([]);
    const stale = Object.keys(NOT_YET_PASSING).filter((id) => !results.some((r) => r.id === id));
    expect(stale, "NOT_YET_PASSING names tests that did not run").toEqual([]);
  });
});
