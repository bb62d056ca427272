/**
 * Python's real `sentry_sdk` (Debian's python3-sentry-sdk) drives the error tracking hooks end to
 * end: a new error, a threshold and a regression, each delivered once to a receiver on loopback (the
 * harness and its payload schema are the default suite's, test/errortracking/hooks/).
 */
import { afterAll, beforeAll, describe, it } from "vitest";
import { startHookHarness, type HookHarness } from "../errortracking/hooks/harness.js";
import { DEBIAN_PYTHON, requireTool } from "./tools.js";

let h: HookHarness;

beforeAll(async () => {
  requireTool(DEBIAN_PYTHON, ["-c", "import sentry_sdk"], "sudo apt-get install python3-sentry-sdk");
  h = await startHookHarness();
  await h.allowLocalRequests();
}, 180_000);

afterAll(async () => {
  await h?.stop();
});

describe("python sentry_sdk drives the error tracking hooks", () => {
  it("a new error, a threshold, then a regression, each delivered once", async () => {
    await h.sdkDrivesTriggers(DEBIAN_PYTHON, "python_app.py", "LookupError");
  });
});
