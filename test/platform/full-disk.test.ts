/**
 * A full data folder, surface by surface: the API answers 507 with a message, a push prints a
 * `remote:` line, the collector answers 503 with Retry-After (never 200); an administrator can still
 * delete a project, a group and a snippet; writes work again once space returns, without a restart;
 * and every write and event answered 2xx is there after a restart.
 *
 * The data folder is a small tmpfs filled for real where the test can mount one (as root, as CI
 * runs): DynamoDB Local, the queue journal and the repositories then meet a real full disk. Where
 * it cannot, the folder is an ordinary temporary one and the handlers' own table and queue clients
 * (this process's) refuse every write with ENOSPC, as the table's launcher and the journal would,
 * for as long as the space reserve is there: a disk whose last free bytes are the reserve
 * (`platform/space-reserve.ts`). `FORGELINE_TEST_NO_MOUNT=1` chooses that fallback where mounting
 * works too.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { startRuntime, defaultLocalConfig, type Runtime } from "../../local/runtime.js";
import { dynamo } from "../../functions/platform/aws.js";
import { sqsClient } from "../../functions/platform/aws-sqs.js";
import { freeBytes, LOW_SPACE_BYTES, STORAGE_FULL_MESSAGE } from "../../functions/platform/out-of-space.js";
import { hashedRelativePath, replicaPaths } from "../../functions/hosting/domain/git/index.js";
import { requestAt, unique } from "../support/api.js";
import { mountSmallDisk } from "../support/small-disk.js";

const run = promisify(execFile);
const TOKEN = "glpat-full-disk-test-token-0001";

const small = mountSmallDisk(64 * 1024 * 1024);
const mode = small ? "a small file system, filled" : "injected ENOSPC";
const work = mkdtempSync(join(tmpdir(), "forgeline-full-disk-work-"));
const dataDir = small ? join(small.dir, "data") : join(work, "data");
const reserve = join(dataDir, "space-reserve");

/** The disk's free space and the reserve's size: what deleting gives back, whichever of the two holds it. */
const room = () => (freeBytes(dataDir) ?? 0) + (statSync(reserve, { throwIfNoEntry: false })?.size ?? 0);

/** Polls until `done`, for up to two minutes (a loaded machine). */
async function waitFor(done: () => boolean | Promise<boolean>, what: string) {
  for (let i = 0; i < 1200; i++) {
    if (await done()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const WRITES = /^(PutItem|UpdateItem|DeleteItem|BatchWriteItem|TransactWriteItems|SendMessage|SendMessageBatch)Command$/;
type Client = { send: (command: object, ...rest: unknown[]) => Promise<unknown> };
const refusing = new Map<Client, Client["send"]>();

/** Fills the data folder: for real, or by refusing writes while the reserve stands for the last free bytes. */
async function fill() {
  await waitFor(() => existsSync(reserve), "the space reserve");
  if (small) return small.fill();
  for (const client of [dynamo(), sqsClient()] as Client[]) {
    if (refusing.has(client)) continue;
    const send = client.send.bind(client);
    refusing.set(client, client.send);
    client.send = (command, ...rest) =>
      WRITES.test(command.constructor.name) && existsSync(reserve) ? Promise.reject(Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" })) : send(command, ...rest);
  }
}

function empty() {
  if (small) return small.empty();
  for (const [client, send] of refusing) client.send = send;
  refusing.clear();
}

let runtime: Runtime;
const start = async () => {
  runtime = await startRuntime({ dataDir, persistent: true, config: { ...defaultLocalConfig(dataDir), offering: "hosted" }, crons: false, bootstrapToken: TOKEN });
};
const call = (method: string, path: string, body?: unknown, token = TOKEN) => requestAt(runtime.baseUrl, method, path, { token, body });

/** git with no user or system configuration and no prompts. */
async function git(args: string[], cwd = work): Promise<{ ok: boolean; stderr: string }> {
  const env = { PATH: process.env.PATH, HOME: work, GIT_TERMINAL_PROMPT: "0", GIT_CONFIG_NOSYSTEM: "1", GIT_AUTHOR_NAME: "P", GIT_AUTHOR_EMAIL: "p@example.com", GIT_COMMITTER_NAME: "P", GIT_COMMITTER_EMAIL: "p@example.com" };
  try {
    const { stderr } = await run("git", args, { cwd, env, maxBuffer: 64 * 1024 * 1024 });
    return { ok: true, stderr };
  } catch (err) {
    return { ok: false, stderr: (err as { stderr?: string }).stderr ?? "" };
  }
}

async function commitLocally(clone: string, file: string, content: Buffer | string) {
  writeFileSync(join(clone, file), content);
  expect((await git(["add", file], clone)).ok).toBe(true);
  expect((await git(["commit", "-q", "-m", `add ${file}`], clone)).ok).toBe(true);
}

/** A raw envelope with one event, grouped by `message`, as an SDK posts it; resolves with the answer. */
async function sendEvent(dsn: string, message: string) {
  const url = new URL(dsn);
  const [, path, projectId] = /^(.*)\/([^/]+)$/.exec(url.pathname)!;
  const eventId = randomBytes(16).toString("hex");
  const body = `${JSON.stringify({ event_id: eventId })}\n{"type":"event"}\n${JSON.stringify({ event_id: eventId, message, level: "error", platform: "node" })}\n`;
  const res = await fetch(`${url.protocol}//${url.host}${path}/api/${projectId}/envelope/`, {
    method: "POST",
    headers: { "Content-Type": "application/x-sentry-envelope", "X-Sentry-Auth": `Sentry sentry_version=7, sentry_key=${url.username}` },
    body,
  });
  return { status: res.status, retryAfter: res.headers.get("retry-after"), text: await res.text() };
}

/** Each error of the project's list by title, with its event count. */
async function errorCounts(ui: string): Promise<Record<string, number>> {
  const res = await call("GET", `${ui}.json`);
  expect(res.status, res.text).toBe(200);
  return Object.fromEntries((res.body.errors as Array<{ title: string; count: number }>).map((e) => [e.title, e.count]));
}

const expect507 = (res: { status: number; body: unknown; text: string }) => {
  expect(res.status, res.text).toBe(507);
  expect(res.body).toEqual({ message: `507 Insufficient Storage: ${STORAGE_FULL_MESSAGE}` });
};

let project: { id: number; http_url_to_repo: string; path_with_namespace: string };
let doomed: { id: number };
let clone: string;
let dsn: string;
let ui: string;
/** Every 2xx answer of the test, to find again after the restart. */
const acknowledged = { users: [] as string[], projects: [] as string[], files: [] as string[], wikiPages: [] as string[], events: { before: 0, after: 0 } };

beforeAll(async () => {
  await start();
  project = (await call("POST", "/api/v4/projects", { name: unique("full"), initialize_with_readme: true })).body;
  acknowledged.projects.push(project.path_with_namespace);
  doomed = (await call("POST", "/api/v4/projects", { name: unique("doomed"), initialize_with_readme: true })).body;
  // Something to free: 2 MiB that no file system compresses, in the project that is deleted.
  const big = await call("POST", `/api/v4/projects/${doomed.id}/repository/files/big.bin`, { branch: "main", content: randomBytes(2 * 1024 * 1024).toString("base64"), encoding: "base64", commit_message: "big" });
  expect(big.status, big.text).toBe(201);
  expect((await call("PUT", `/api/v4/projects/${project.id}/error_tracking/settings`, { active: true, integrated: true })).status).toBe(200);
  dsn = (await call("GET", `/api/v4/projects/${project.id}/error_tracking/client_keys`)).body[0].sentry_dsn;
  ui = `/${project.path_with_namespace}/-/error_tracking`;
  for (let i = 0; i < 3; i++) {
    expect((await sendEvent(dsn, "sent before the disk filled")).status).toBe(200);
    acknowledged.events.before++;
  }
  await waitFor(async () => (await errorCounts(ui))["sent before the disk filled"] === 3, "the first events");
  clone = join(work, "clone");
  const url = new URL(project.http_url_to_repo);
  url.username = "root";
  url.password = TOKEN;
  expect((await git(["clone", "-q", url.toString(), clone])).ok).toBe(true);
  await fill();
}, 300_000);

afterAll(async () => {
  empty();
  await runtime?.stop();
  await small?.unmount();
  rmSync(work, { recursive: true, force: true });
}, 300_000);

describe(`a full data folder (${mode})`, () => {
  it("answers every API write with 507 and GitLab's message shape, and still serves reads", async () => {
    const actions = [{ action: "create", file_path: "full.txt", content: "x" }];
    expect507(await call("POST", `/api/v4/projects/${project.id}/repository/commits`, { branch: "main", commit_message: "full", actions }));
    expect507(await call("POST", `/api/v4/projects/${project.id}/repository/files/full.txt`, { branch: "main", content: "x", commit_message: "full" }));
    expect507(await call("POST", `/api/v4/projects/${project.id}/wikis`, { title: "Full", content: "x" }));
    expect507(await call("POST", "/api/v4/projects", { name: unique("full") }));
    const username = unique("full").replace("-", "_");
    expect507(await call("POST", "/api/v4/users", { username, name: username, email: `${username}@example.com` }));
    expect((await call("GET", `/api/v4/projects/${project.id}`)).status).toBe(200);
    expect((await call("GET", `/api/v4/projects/${project.id}/repository/files/README.md?ref=main`)).status).toBe(200);
  });

  it("refuses a push with a remote: line saying the storage is full", async () => {
    await commitLocally(clone, "pushed-when-full.txt", "x\n");
    const refused = await git(["push", "origin", "main"], clone);
    expect(refused.ok).toBe(false);
    expect(refused.stderr).toContain(`remote: ${STORAGE_FULL_MESSAGE}`);
    expect(refused.stderr).toContain(`[remote rejected] main -> main (${STORAGE_FULL_MESSAGE})`);
    if (small) {
      // Room for the table's writes, not for the pack: git itself runs out, and the answer says so in our words too.
      small.empty();
      small.fill(LOW_SPACE_BYTES + 1024 * 1024);
      await commitLocally(clone, "too-big.bin", randomBytes(12 * 1024 * 1024));
      const cut = await git(["push", "origin", "main"], clone);
      expect(cut.ok).toBe(false);
      expect(cut.stderr).toContain(`remote: ${STORAGE_FULL_MESSAGE}`);
      expect(cut.stderr).toContain("No space left on device");
      expect((await git(["reset", "-q", "--hard", "HEAD~1"], clone)).ok).toBe(true);
      small.fill();
    }
  }, 120_000);

  it("answers the collector 503 with Retry-After, never 200", async () => {
    for (let i = 0; i < 3; i++) {
      const answer = await sendEvent(dsn, "sent while the disk was full");
      expect(answer.status, answer.text).toBe(503);
      expect(Number(answer.retryAfter)).toBeGreaterThan(0);
    }
  });

  it("deletes a project on the full disk, and that gives its space back", async () => {
    const before = room();
    const repository = replicaPaths("default", hashedRelativePath("project", doomed.id))[0]!;
    expect(existsSync(repository)).toBe(true);
    const deleted = await call("DELETE", `/api/v4/projects/${doomed.id}`);
    expect(deleted.status, deleted.text).toBe(202);
    expect((await call("GET", `/api/v4/projects/${doomed.id}`)).status).toBe(404);
    expect(existsSync(repository)).toBe(false);
    // On the small file system: its 2 MiB are free again (or back in the reserve).
    if (small) expect(room() - before).toBeGreaterThan(1024 * 1024);
  });

  it("deletes a group and a snippet on the full disk", async () => {
    empty();
    const group = await call("POST", "/api/v4/groups", { name: unique("g"), path: unique("g") });
    expect(group.status, group.text).toBe(201);
    const snippet = await call("POST", "/api/v4/snippets", { title: "s", visibility: "private", files: [{ file_path: "s.txt", content: "s" }] });
    expect(snippet.status, snippet.text).toBe(201);
    await fill();
    expect((await call("DELETE", `/api/v4/groups/${group.body.id}`)).status).toBe(202);
    expect((await call("GET", `/api/v4/groups/${group.body.id}`)).status).toBe(404);
    await fill();
    expect((await call("DELETE", `/api/v4/snippets/${snippet.body.id}`)).status).toBe(204);
    expect((await call("GET", `/api/v4/snippets/${snippet.body.id}`)).status).toBe(404);
  });
});

describe(`once space returns (${mode})`, () => {
  it("takes writes again without a restart: API, push and collector", async () => {
    empty();
    const commit = await call("POST", `/api/v4/projects/${project.id}/repository/files/after.txt`, { branch: "main", content: "after", commit_message: "after" });
    expect(commit.status, commit.text).toBe(201);
    acknowledged.files.push("after.txt");
    const page = await call("POST", `/api/v4/projects/${project.id}/wikis`, { title: "After", content: "after" });
    expect(page.status, page.text).toBe(201);
    acknowledged.wikiPages.push(page.body.slug);
    const created = await call("POST", "/api/v4/projects", { name: unique("after") });
    expect(created.status, created.text).toBe(201);
    acknowledged.projects.push(created.body.path_with_namespace);
    const username = unique("after").replace("-", "_");
    const user = await call("POST", "/api/v4/users", { username, name: username, email: `${username}@example.com` });
    expect(user.status, user.text).toBe(201);
    acknowledged.users.push(username);
    expect((await git(["pull", "-q", "--rebase", "origin", "main"], clone)).ok).toBe(true);
    const pushed = await git(["push", "origin", "main"], clone);
    expect(pushed.ok, pushed.stderr).toBe(true);
    acknowledged.files.push("pushed-when-full.txt");
    for (let i = 0; i < 3; i++) {
      const answer = await sendEvent(dsn, "sent once space returned");
      expect(answer.status, answer.text).toBe(200);
      acknowledged.events.after++;
    }
  });

  it("keeps every write and event answered 2xx across a restart", async () => {
    await runtime.settle();
    await runtime.stop();
    await start();
    for (const path of acknowledged.projects) expect((await call("GET", `/api/v4/projects/${encodeURIComponent(path)}`)).status).toBe(200);
    for (const file of acknowledged.files) expect((await call("GET", `/api/v4/projects/${project.id}/repository/files/${file}?ref=main`)).status).toBe(200);
    for (const slug of acknowledged.wikiPages) expect((await call("GET", `/api/v4/projects/${project.id}/wikis/${slug}`)).status).toBe(200);
    for (const username of acknowledged.users) expect((await call("GET", `/api/v4/users?username=${username}`)).body).toHaveLength(1);
    await waitFor(async () => (await errorCounts(ui))["sent once space returned"] === acknowledged.events.after, "the events after the restart");
    const counts = await errorCounts(ui);
    expect(counts["sent before the disk filled"]).toBe(acknowledged.events.before);
    expect(counts["sent once space returned"]).toBe(acknowledged.events.after);
  }, 300_000);
});
