/**
 * The first administrator on an instance that does not bootstrap at start (as on AWS): the first
 * request presenting the configured bootstrap token creates `root` with exactly that token.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startRuntime, defaultLocalConfig, type Runtime } from "../../local/runtime.js";

const TOKEN = "glpat-first-admin-from-secret-01";
let runtime: Runtime;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "forgeline-bootstrap-"));
  runtime = await startRuntime({ dataDir, persistent: false, config: defaultLocalConfig(dataDir), bootstrapAtStart: false });
});
afterAll(async () => {
  delete process.env.FORGELINE_BOOTSTRAP_ADMIN_TOKEN;
  await runtime.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const me = (token: string) => fetch(`${runtime.baseUrl}/api/v4/user`, { headers: { "Private-Token": token } });

describe("bootstrap on first request", () => {
  it("accepts nothing while no bootstrap token is configured", async () => {
    delete process.env.FORGELINE_BOOTSTRAP_ADMIN_TOKEN;
    expect((await me(TOKEN)).status).toBe(401);
  });

  it("creates root with the configured token on its first use, once", async () => {
    process.env.FORGELINE_BOOTSTRAP_ADMIN_TOKEN = TOKEN;
    expect((await me("glpat-some-other-token-000000")).status).toBe(401);
    const first = await me(TOKEN);
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ username: "root", is_admin: true });
    expect((await me(TOKEN)).status).toBe(200);
    const users = await fetch(`${runtime.baseUrl}/api/v4/users`, { headers: { "Private-Token": TOKEN } }).then((r) => r.json() as Promise<unknown[]>);
    expect(users).toHaveLength(1);
  });

  it("never bootstraps again once an administrator exists", async () => {
    process.env.FORGELINE_BOOTSTRAP_ADMIN_TOKEN = "glpat-a-second-secret-value-02";
    expect((await me("glpat-a-second-secret-value-02")).status).toBe(401);
  });
});
