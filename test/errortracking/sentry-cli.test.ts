/**
 * `@sentry/cli`'s `send-event` (the Rust client, its binary from the npm package) against the running
 * server with a DSN from the client keys API: a message event with a formatted message, release,
 * environment, tag and user, and an exception event sent from a JSON file, as CI scripts send them.
 * Each must be listed afterwards with its count, user count and release.
 */
import { describe, it, expect } from "vitest";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { api } from "../support/api.js";
import { trackedProject, waitForEvents } from "./support.js";

const run = promisify(execFile);
const sentryCli = resolve(import.meta.dirname, "../../node_modules/.bin/sentry-cli");

describe("@sentry/cli send-event end to end", () => {
  it("a message event and an exception event from a file are grouped with their counts, user and release", async () => {
    const { owner, project, ui } = await trackedProject();
    const [key] = (await api("GET", `/api/v4/projects/${project.id}/error_tracking/client_keys`, { token: owner.token })).body;
    const dir = mkdtempSync(join(tmpdir(), "forgeline-sentry-cli-"));
    // No configuration file of the machine's, no telemetry, nothing but the DSN.
    const env = { PATH: process.env.PATH, HOME: dir, SENTRY_DSN: key.sentry_dsn, SENTRY_LOAD_DOTENV: "0", SENTRY_DISABLE_UPDATE_CHECK: "true" };
    try {
      for (let i = 0; i < 2; i++) {
        await run(sentryCli, ["send-event", "--no-environ", "-m", "deploy of %s failed", "-a", "api", "-r", "cli@2.0.0", "-E", "production", "-t", "stage:deploy", "-u", "id:42", "-u", "username:ci"], { env, timeout: 60_000 });
      }
      const file = join(dir, "event.json");
      writeFileSync(file, JSON.stringify({ level: "error", platform: "other", release: "cli@2.0.0", exception: { values: [{ type: "DeployError", value: "migration 42 timed out" }] }, user: { id: "7" } }));
      await run(sentryCli, ["send-event", file], { env, timeout: 60_000 });

      const errors = await waitForEvents(owner.token, ui, 3);
      const message = errors.find((e) => e.type === "default");
      const exception = errors.find((e) => e.type === "error");
      expect(message).toMatchObject({ title: "deploy of api failed", count: 2, user_count: 1, status: "unresolved" });
      expect(exception).toMatchObject({ title: "DeployError: migration 42 timed out", count: 1, user_count: 1 });
      const details = await api("GET", `${ui}/${message!.id}/details.json`, { token: owner.token });
      expect(details.body.error).toMatchObject({ last_release_short_version: "cli@2.0.0" });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
