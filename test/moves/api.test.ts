/**
 * The storage-move API on the shared test runtime: contract (fields, states, status codes, error
 * bodies), per-container moves of projects, snippets and group wikis, and the read-only window.
 * Each test moves only repositories it created itself.
 */
import { describe, it, expect, beforeAll } from "vitest";
import { adminToken, baseUrl, newUser } from "../support/api.js";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fsck, repoPaths } from "../support/git.js";
import { projectWikiPath } from "../../functions/hosting/domain/project-wiki.js";
import { updateItem } from "../../functions/platform/db/table.js";
import { checksum, hashedRelativePath, repositoryExists } from "../../functions/hosting/domain/git/index.js";
import { findMove } from "../../functions/moves/domain/records.js";
import { moveRoutes } from "../../functions/moves/routes.js";
import { call, commit, newGroupWithWiki, newProject, newSnippet, otherStorage, repoKind, scheduleMove, storageOf, waitForMove, type Client, type Kind } from "./support.js";

let admin: Client;
beforeAll(() => {
  admin = { baseUrl: baseUrl(), token: adminToken() };
});

const READ_ONLY = { message: "The repository is temporarily read-only. Please try again later." };

async function expectMovedIntact(kind: Kind, id: number, from: string, to: string, before: string) {
  const rel = hashedRelativePath(repoKind(kind), id);
  expect(await storageOf(kind, id)).toBe(to);
  expect(await checksum(to, rel)).toBe(before);
  for (const dir of repoPaths(to, repoKind(kind), id)) fsck(dir);
  expect(await repositoryExists(from, rel)).toBe(false);
}

describe("moving one repository", () => {
  it("schedules a project move (201, GitLab's record) that finishes on every cluster replica", async () => {
    const project = await newProject(admin);
    const source = (await storageOf("project", project.id))!;
    const before = await checksum(source, hashedRelativePath("project", project.id));
    const scheduled = await call(admin, "POST", `/api/v4/projects/${project.id}/repository_storage_moves`, { body: { destination_storage_name: otherStorage(source) } });
    expect(scheduled.status).toBe(201);
    expect(Object.keys(scheduled.body).sort()).toEqual(["created_at", "destination_storage_name", "error_message", "id", "project", "source_storage_name", "state"]);
    expect(scheduled.body).toMatchObject({ state: "scheduled", source_storage_name: source, destination_storage_name: otherStorage(source), error_message: null });
    expect(scheduled.body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Object.keys(scheduled.body.project).sort()).toEqual(["created_at", "description", "id", "name", "name_with_namespace", "path", "path_with_namespace"]);
    expect(scheduled.body.project).toMatchObject({ id: project.id, path_with_namespace: project.path_with_namespace });

    const done = await waitForMove(admin, "project", scheduled.body.id);
    expect(done).toMatchObject({ state: "finished", error_message: null });
    await expectMovedIntact("project", project.id, source, otherStorage(source), before);
    expect((await commit(admin, project.id, "after the move")).status).toBe(201);
    const record = await findMove("project", scheduled.body.id);
    expect(record?.history.map((h) => h.step)).toEqual(expect.arrayContaining(["scheduled", "started", "copied and verified", "replicated", "source copy removed", "finished"]));
    // The switch records the checksum it verified in the same write that switched the storage.
    expect(record?.history.find((h) => h.step === "replicated")?.detail).toBe(`checksum ${before}`);
    expect(record?.executionArn).toMatch(/^arn:aws:states:/);
    const execution = await call(admin, "GET", `/api/v4/project_repository_storage_moves/${scheduled.body.id}/execution`);
    expect(execution.body).toMatchObject({ id: scheduled.body.id, state: "finished", execution_arn: record?.executionArn, bulk_execution_name: null });
    // Its name says what it moves: an operator finds `project-<id>` in the console's list.
    expect(execution.body.execution_arn).toContain(`:project-${project.id}-move-${scheduled.body.id}-`);
    expect(execution.body.history).toEqual(record?.history);
  });

  it("lists moves with each project nested, and null for a project deleted since", async () => {
    const [kept, deleted] = [await newProject(admin), await newProject(admin)];
    const moves: number[] = [];
    for (const p of [kept, deleted]) {
      const source = (await storageOf("project", p.id))!;
      const move = await scheduleMove(admin, "project", p.id, otherStorage(source));
      moves.push((await waitForMove(admin, "project", move.id)).id);
    }
    expect((await call(admin, "DELETE", `/api/v4/projects/${deleted.id}`)).status).toBe(202);
    const list = await call(admin, "GET", "/api/v4/project_repository_storage_moves?per_page=100");
    const byId = new Map<number, { project: { id: number } | null }>(list.body.map((m: { id: number; project: { id: number } | null }) => [m.id, m]));
    expect(byId.get(moves[0]!)?.project).toMatchObject({ id: kept.id, path_with_namespace: kept.path_with_namespace });
    expect(byId.get(moves[1]!)?.project).toBeNull();
    expect((await call(admin, "GET", `/api/v4/project_repository_storage_moves/${moves[1]}`)).body.project).toBeNull();
  });

  it("moves a snippet and a group wiki", async () => {
    const snippet = await newSnippet(admin);
    const group = await newGroupWithWiki(admin);
    for (const [kind, id] of [["snippet", snippet.id], ["group", group.id]] as const) {
      const source = (await storageOf(kind, id))!;
      const before = await checksum(source, hashedRelativePath(repoKind(kind), id));
      const move = await scheduleMove(admin, kind, id, otherStorage(source));
      const done = await waitForMove(admin, kind, move.id);
      expect(done.state).toBe("finished");
      await expectMovedIntact(kind, id, source, otherStorage(source), before);
    }
    const snippetMove = (await call(admin, "GET", `/api/v4/snippets/${snippet.id}/repository_storage_moves`)).body[0];
    expect(Object.keys(snippetMove.snippet).sort()).toEqual(
      ["created_at", "description", "http_url_to_repo", "id", "project_id", "raw_url", "ssh_url_to_repo", "title", "updated_at", "visibility", "web_url"].sort(),
    );
    const groupMove = (await call(admin, "GET", `/api/v4/groups/${group.id}/repository_storage_moves`)).body[0];
    expect(groupMove.group).toEqual({ id: group.id, web_url: `${admin.baseUrl}/groups/${group.full_path}`, name: "Moves" });
    const page = await call(admin, "GET", `/api/v4/groups/${group.id}/wikis/Home`);
    expect(page.body.content).toBe("welcome");
  });

  it("carries a project's wiki repository with it: pages readable after the move, nothing left on the source", async () => {
    const project = await newProject(admin);
    const wikis = `/api/v4/projects/${project.id}/wikis`;
    for (const [title, content] of [["Home", "welcome"], ["docs/Setup", "steps"]]) {
      expect((await call(admin, "POST", wikis, { body: { title, content } })).status).toBe(201);
    }
    const source = (await storageOf("project", project.id))!;
    const destination = otherStorage(source);
    const wikiRel = projectWikiPath(hashedRelativePath("project", project.id));
    const [projectBefore, wikiBefore] = await Promise.all([checksum(source, hashedRelativePath("project", project.id)), checksum(source, wikiRel)]);
    // A write in flight holds the move at the drain; meanwhile wiki writes are refused like commits.
    await updateItem({ pk: `PROJECT#${project.id}`, sk: "PROJECT", update: "SET writeLease = :l", values: { ":l": { id: "in-flight", expiresAt: Date.now() + 2_000 } } });
    const move = await scheduleMove(admin, "project", project.id, destination);
    expect(await call(admin, "POST", wikis, { body: { title: "During", content: "d" } })).toMatchObject({ status: 409, body: READ_ONLY });
    expect(await call(admin, "PUT", `${wikis}/Home`, { body: { content: "changed" } })).toMatchObject({ status: 409, body: READ_ONLY });
    expect(await call(admin, "DELETE", `${wikis}/Home`)).toMatchObject({ status: 409, body: READ_ONLY });

    expect((await waitForMove(admin, "project", move.id)).state).toBe("finished");
    await expectMovedIntact("project", project.id, source, destination, projectBefore);
    expect(await checksum(destination, wikiRel)).toBe(wikiBefore);
    for (const dir of repoPaths(destination, "project-wiki", project.id)) fsck(dir);
    for (const dir of repoPaths(source, "project-wiki", project.id)) expect(existsSync(dir)).toBe(false);
    expect(await repositoryExists(source, wikiRel)).toBe(false);
    expect((await findMove("project", move.id))!.history.find((h) => h.step === "replicated")?.detail).toBe(`checksum ${projectBefore}, wiki checksum ${wikiBefore}`);

    expect((await call(admin, "GET", `${wikis}/Home`)).body.content).toBe("welcome");
    expect((await call(admin, "GET", `${wikis}/${encodeURIComponent("docs/Setup")}`)).body.content).toBe("steps");
    expect((await call(admin, "PUT", `${wikis}/Home`, { body: { content: "after the move" } })).status).toBe(200);
    expect((await call(admin, "GET", `${wikis}/Home`)).body.content).toBe("after the move");
  });

  it("does not carry what a killed push left (git's incoming objects, temporary packs), and verifies the same checksum", async () => {
    const project = await newProject(admin);
    const source = (await storageOf("project", project.id))!;
    const destination = otherStorage(source);
    const rel = hashedRelativePath("project", project.id);
    const before = await checksum(source, rel);
    // As git names them: receive-pack's quarantine with index-pack's pack half written, loose
    // objects unpack-objects wrote into it, and a temporary pack file in the pack folder itself.
    const [primary] = repoPaths(source, "project", project.id);
    const quarantine = join(primary!, "objects", "tmp_objdir-incoming-Ab12Cd");
    mkdirSync(join(quarantine, "pack"), { recursive: true });
    writeFileSync(join(quarantine, "pack", "tmp_pack_Xy34Zw"), Buffer.alloc(64 * 1024, 1));
    mkdirSync(join(quarantine, "ab"), { recursive: true });
    writeFileSync(join(quarantine, "ab", "cdef0123456789abcdef0123456789abcdef01"), "not an object");
    mkdirSync(join(primary!, "objects", "pack"), { recursive: true });
    writeFileSync(join(primary!, "objects", "pack", "tmp_idx_Qw56Er"), Buffer.alloc(4096, 2));

    const move = await scheduleMove(admin, "project", project.id, destination);
    expect((await waitForMove(admin, "project", move.id)).state).toBe("finished");
    await expectMovedIntact("project", project.id, source, destination, before);
    expect((await findMove("project", move.id))!.history.find((h) => h.step === "replicated")?.detail).toBe(`checksum ${before}`);
    for (const dir of repoPaths(destination, "project", project.id)) {
      const objects = readdirSync(join(dir, "objects"));
      const packs = existsSync(join(dir, "objects", "pack")) ? readdirSync(join(dir, "objects", "pack")) : [];
      expect([...objects, ...packs].filter((name) => name.startsWith("tmp_")), dir).toEqual([]);
    }
  });

  it("moves a project without a wiki and gives it none", async () => {
    const project = await newProject(admin);
    const source = (await storageOf("project", project.id))!;
    const move = await scheduleMove(admin, "project", project.id, otherStorage(source));
    expect((await waitForMove(admin, "project", move.id)).state).toBe("finished");
    const wikiRel = projectWikiPath(hashedRelativePath("project", project.id));
    expect(await repositoryExists(otherStorage(source), wikiRel)).toBe(false);
    expect(await repositoryExists(source, wikiRel)).toBe(false);
    expect((await call(admin, "GET", `/api/v4/projects/${project.id}/wikis`)).body).toEqual([]);
    // The first page after the move lands beside the project, on its new storage.
    expect((await call(admin, "POST", `/api/v4/projects/${project.id}/wikis`, { body: { title: "Home", content: "h" } })).status).toBe(201);
    expect(await repositoryExists(otherStorage(source), wikiRel)).toBe(true);
  });

  it("refuses writes while the move runs and waits for an in-flight write to drain", async () => {
    const project = await newProject(admin);
    const source = (await storageOf("project", project.id))!;
    // A write in flight: an unexpired lease, as the write path holds it while committing.
    const leaseEnds = Date.now() + 2_000;
    await updateItem({ pk: `PROJECT#${project.id}`, sk: "PROJECT", update: "SET writeLease = :l", values: { ":l": { id: "in-flight", expiresAt: leaseEnds } } });
    const move = await scheduleMove(admin, "project", project.id, otherStorage(source));

    const refused = await commit(admin, project.id, "during the move");
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual(READ_ONLY);
    const again = await call(admin, "POST", `/api/v4/projects/${project.id}/repository_storage_moves`, { body: { destination_storage_name: otherStorage(source) } });
    expect(again).toMatchObject({ status: 400, body: { message: { project: ["is read-only"] } } });

    const done = await waitForMove(admin, "project", move.id);
    expect(done.state).toBe("finished");
    const history = (await findMove("project", move.id))!.history;
    expect(history.map((h) => h.step)).toContain("waiting for writes to drain");
    // The copy was taken only after the lease had expired.
    const copied = history.find((h) => h.step === "copied and verified")!;
    expect(Date.parse(copied.at)).toBeGreaterThanOrEqual(leaseEnds);
    expect((await commit(admin, project.id, "after the move")).status).toBe(201);
  });
});

describe("lists and lookups", () => {
  it("lists moves newest first with pagination headers, per container and per kind", async () => {
    const project = await newProject(admin);
    const source = (await storageOf("project", project.id))!;
    const first = await scheduleMove(admin, "project", project.id, otherStorage(source));
    await waitForMove(admin, "project", first.id);
    const second = await scheduleMove(admin, "project", project.id, source);
    await waitForMove(admin, "project", second.id);

    const mine = await call(admin, "GET", `/api/v4/projects/${project.id}/repository_storage_moves?per_page=1`);
    expect(mine.status).toBe(200);
    expect(mine.body.map((m: { id: number }) => m.id)).toEqual([second.id]);
    expect(mine.headers.get("x-next-page")).toBe("2");
    expect(mine.headers.get("x-per-page")).toBe("1");
    const page2 = await call(admin, "GET", `/api/v4/projects/${project.id}/repository_storage_moves?per_page=1&page=2`);
    expect(page2.body.map((m: { id: number }) => m.id)).toEqual([first.id]);
    expect(page2.headers.get("x-next-page")).toBe("");

    const all = await call(admin, "GET", "/api/v4/project_repository_storage_moves?per_page=100");
    const ids = all.body.map((m: { id: number }) => m.id);
    expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));
    expect(ids).toEqual([...ids].sort((a: number, b: number) => b - a));

    const byPath = await call(admin, "GET", `/api/v4/projects/${encodeURIComponent(project.path_with_namespace)}/repository_storage_moves/${first.id}`);
    expect(byPath.body).toMatchObject({ id: first.id, state: "finished" });
    const other = await newProject(admin);
    expect(await call(admin, "GET", `/api/v4/projects/${other.id}/repository_storage_moves/${first.id}`)).toMatchObject({ status: 404, body: { message: "404 Not found" } });
    expect(await call(admin, "GET", "/api/v4/project_repository_storage_moves/999999999")).toMatchObject({ status: 404, body: { message: "404 Not found" } });
    expect(await call(admin, "GET", "/api/v4/projects/999999999/repository_storage_moves")).toMatchObject({ status: 404, body: { message: "404 Project Not Found" } });
    expect(await call(admin, "GET", "/api/v4/project_repository_storage_moves/abc")).toMatchObject({ status: 400, body: { error: "repository_storage_move_id is invalid" } });
  });
});

describe("who may move repositories", () => {
  it("answers 401 without a token and 403 to non-administrators on every route", async () => {
    const user = await newUser();
    const project = await newProject(admin, user.token);
    for (const route of moveRoutes) {
      const path = route.path.replace(":id", String(project.id)).replace(":repository_storage_move_id", "1");
      const body = route.method === "POST" ? { source_storage_name: "default" } : undefined;
      expect(await call(admin, route.method, path, { token: null, body }), `${route.method} ${path}`).toMatchObject({ status: 401, body: { message: "401 Unauthorized" } });
      expect(await call(admin, route.method, path, { token: user.token, body }), `${route.method} ${path}`).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
    }
    expect(await storageOf("project", project.id)).toBeDefined();
  });
});

describe("validation", () => {
  it("answers bulk errors in Grape's shape", async () => {
    for (const kind of ["project", "snippet", "group"] as const) {
      const path = `/api/v4/${kind}_repository_storage_moves`;
      expect(await call(admin, "POST", path, { body: {} })).toMatchObject({ status: 400, body: { error: "source_storage_name is missing" } });
      expect(await call(admin, "POST", path, { body: { source_storage_name: "nowhere" } })).toMatchObject({ status: 400, body: { error: "source_storage_name does not have a valid value" } });
      expect(await call(admin, "POST", path, { body: { source_storage_name: "default", destination_storage_name: "nowhere" } })).toMatchObject({
        status: 400,
        body: { error: "destination_storage_name does not have a valid value" },
      });
    }
  });

  it("answers per-container errors in the model-validation shape", async () => {
    const project = await newProject(admin);
    const res = await call(admin, "POST", `/api/v4/projects/${project.id}/repository_storage_moves`, { body: { destination_storage_name: "nowhere" } });
    expect(res).toMatchObject({ status: 400, body: { message: { destination_storage_name: ["is not included in the list"] } } });
    const group = await call(admin, "POST", "/api/v4/groups", { body: { name: "Empty", path: `empty-${project.id}` } });
    const noWiki = await call(admin, "POST", `/api/v4/groups/${group.body.id}/repository_storage_moves`, { body: { destination_storage_name: "cluster" } });
    expect(noWiki).toMatchObject({ status: 400, body: { message: { group: ["has no wiki repository"] } } });
  });

  it("rejects a move onto the storage the repository is already on, and changes nothing", async () => {
    const project = await newProject(admin);
    const source = (await storageOf("project", project.id))!;
    const before = await checksum(source, hashedRelativePath("project", project.id));
    const single = await call(admin, "POST", `/api/v4/projects/${project.id}/repository_storage_moves`, { body: { destination_storage_name: source } });
    expect(single).toMatchObject({ status: 400, body: { message: { destination_storage_name: ["must be different from source_storage_name"] } } });
    const bulk = await call(admin, "POST", "/api/v4/project_repository_storage_moves", { body: { source_storage_name: source, destination_storage_name: source } });
    expect(bulk).toMatchObject({ status: 400, body: { error: "destination_storage_name must be different from source_storage_name" } });
    expect((await call(admin, "GET", `/api/v4/projects/${project.id}/repository_storage_moves`)).body).toEqual([]);
    expect(await storageOf("project", project.id)).toBe(source);
    expect(await checksum(source, hashedRelativePath("project", project.id))).toBe(before);
    expect((await commit(admin, project.id, "still writable")).status).toBe(201);
  });
});

describe("group moves and the license tier", () => {
  it("allows group moves only on self-managed Premium or Ultimate", async () => {
    const { assertGroupMovesAllowed } = await import("../../functions/moves/domain/policy.js");
    expect(() => assertGroupMovesAllowed({ tier: "premium", offering: "self-managed" })).not.toThrow();
    expect(() => assertGroupMovesAllowed({ tier: "ultimate", offering: "self-managed" })).not.toThrow();
    for (const config of [{ tier: "free", offering: "self-managed" }, { tier: "ultimate", offering: "hosted" }] as const) {
      let error: unknown;
      try {
        assertGroupMovesAllowed(config);
      } catch (err) {
        error = err;
      }
      expect(error).toMatchObject({ status: 403 });
      expect((error as { body: { message: string } }).body.message).toMatch(/^403 Forbidden - group repository storage moves need a self-managed instance on the Premium or Ultimate tier/);
    }
    // The test runtime is self-managed Premium: the routes answer.
    expect((await call(admin, "GET", "/api/v4/group_repository_storage_moves")).status).toBe(200);
  });
});
