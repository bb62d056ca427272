/**
 * Acceptance 1, end to end: the real `@sentry/node@11.11.0` SDK, in its own process, configured with
 * a DSN from the client keys API, sends an exception (with a user) and a message to the running
 * server; ingest queues them, the consumer counts them, and both appear in `error_tracking.json`.
 */
import { describe, it, expect } from "vitest";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { resolve } from "node:path";
import { api } from "../support/api.js";
import { trackedProject, waitForErrors } from "./support.js";

const run = promisify(execFile);

describe("@sentry/node 11.11.0 end to end", () => {
  it("an exception with a user and a message appear in error_tracking.json with correct counts", async () => {
    const { owner, project, ui } = await trackedProject();
    const [key] = (await api("GET", `/api/v4/projects/${project.id}/error_tracking/client_keys`, { token: owner.token })).body;
    const app = resolve(import.meta.dirname, "sdk-app.mjs");
    const out = await run(process.execPath, [app], { env: { ...process.env, SENTRY_DSN: key.sentry_dsn }, timeout: 30_000 });
    expect(JSON.parse(out.stdout.trim().split("\n").pop()!)).toEqual({ flushed: true });

    const errors = await waitForErrors(owner.token, ui, 2);
    const exception = errors.find((e) => e.type === "error");
    const msg = errors.find((e) => e.type === "default");
    expect(exception).toMatchObject({ title: "TypeError: e2e node exception", count: 1, user_count: 1, status: "unresolved" });
    expect(msg).toMatchObject({ title: "e2e node message", count: 1, user_count: 1 });
    // The SDK's session updates (automatic process session + the explicit one) become release health.
    let details = await api("GET", `${ui}/${exception!.id}/details.json`, { token: owner.token });
    for (let i = 0; i < 50 && details.body.error.release_health[0]?.sessions !== 2; i++) {
      await new Promise((r) => setTimeout(r, 200));
      details = await api("GET", `${ui}/${exception!.id}/details.json`, { token: owner.token });
    }
    expect(details.body.error).toMatchObject({ last_release_short_version: "e2e@1.0.0", tags: { level: "error" } });
    expect(details.body.error.release_health).toEqual([
      { version: "e2e@1.0.0", sessions: 2, errored_sessions: 1, crashed_sessions: 0, abnormal_sessions: 0, crash_free_sessions: 1 },
    ]);
    const trace = await api("GET", `${ui}/${exception!.id}/stack_trace.json`, { token: owner.token });
    expect(trace.body.error.stack_trace_entries.some((f: { filename: string }) => f.filename?.endsWith("sdk-app.mjs"))).toBe(true);
  });
});
