/**
 * Whole-storage moves on a runtime of this file's own (see isolated-runtime.ts): docs/operators.md's
 * procedure (bulk moves of projects, snippets and group wikis until the old storage is empty),
 * writers racing a bulk move, and the weighted pick of a destination.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { commitSubjects, fsck, repoPaths } from "../support/git.js";
import { queryAll, GSI2 } from "../../functions/platform/db/table.js";
import { checksum, hashedRelativePath, replicaChecksums, repositoryExists } from "../../functions/hosting/domain/git/index.js";
import { startIsolatedRuntime, type IsolatedRuntime } from "./isolated-runtime.js";
import { call, commit, newGroupWithWiki, newProject, newSnippet, plural, repoKind, scheduleMove, storageOf, waitForMove, type Kind } from "./support.js";
import { updateItem } from "../../functions/platform/db/table.js";
import { runMovesCli } from "../../functions/moves/cli/commands.js";
import { connect } from "../../functions/moves/cli/client.js";

let iso: IsolatedRuntime;
beforeAll(async () => {
  iso = await startIsolatedRuntime({}, { bulkPageSize: 2 });
});
afterAll(async () => {
  await iso?.stop();
});

const READ_ONLY = { message: "The repository is temporarily read-only. Please try again later." };
const setWeights = (weights: Record<string, number>) => call(iso, "PUT", "/api/v4/application/settings", { body: { repository_storages_weighted: weights } });

/** Waits, through the API, until every listed container has a terminal move that started after `since`. */
async function waitForBulk(kind: Kind, ids: number[], sinceMoveId = 0) {
  const deadline = Date.now() + 50_000;
  for (;;) {
    const latest = await Promise.all(ids.map(async (id) => (await call(iso, "GET", `/api/v4/${plural[kind]}/${id}/repository_storage_moves?per_page=1`)).body[0]));
    const done = latest.every((m) => m && m.id > sinceMoveId && ["finished", "failed", "cleanup failed"].includes(m.state));
    if (done) return latest as Array<{ id: number; state: string; source_storage_name: string; destination_storage_name: string }>;
    if (Date.now() > deadline) throw new Error(`bulk ${kind} moves still running: ${JSON.stringify(latest.map((m) => m?.state))}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const lastMoveId = async (kind: Kind) => (await call(iso, "GET", `/api/v4/${kind}_repository_storage_moves?per_page=1`)).body[0]?.id ?? 0;

describe("docs/operators.md's procedure: empty a storage", () => {
  it("moves every project, snippet and group wiki from default to the cluster", async () => {
    const projects = await Promise.all([1, 2, 3, 4, 5].map(() => newProject(iso)));
    for (const p of projects) expect((await commit(iso, p.id, "more history")).status).toBe(201);
    const snippets = await Promise.all([1, 2, 3].map(() => newSnippet(iso)));
    const groups = await Promise.all([1, 2, 3].map(() => newGroupWithWiki(iso)));
    const containers: Array<[Kind, number[]]> = [["project", projects.map((p) => p.id)], ["snippet", snippets.map((s) => s.id)], ["group", groups.map((g) => g.id)]];
    const before = new Map<string, string>();
    for (const [kind, ids] of containers) {
      for (const id of ids) {
        expect(await storageOf(kind, id)).toBe("default");
        before.set(`${kind}${id}`, await checksum("default", hashedRelativePath(repoKind(kind), id)));
      }
    }

    // Step 2: new repositories land on the new storage only.
    expect((await setWeights({ default: 0, secondary: 0, cluster: 100 })).status).toBe(200);
    const fresh = await newProject(iso);
    expect(await storageOf("project", fresh.id)).toBe("cluster");

    // Step 3: one call per repository type.
    for (const [kind] of containers) {
      const res = await call(iso, "POST", `/api/v4/${kind}_repository_storage_moves`, { body: { source_storage_name: "default", destination_storage_name: "cluster" } });
      expect(res).toMatchObject({ status: 202, body: { message: "202 Accepted" } });
    }

    // Step 4: query the moves until they are finished.
    for (const [kind, ids] of containers) {
      const moves = await waitForBulk(kind, ids);
      expect(moves.map((m) => m.state)).toEqual(ids.map(() => "finished"));
      expect(moves.every((m) => m.source_storage_name === "default" && m.destination_storage_name === "cluster")).toBe(true);
      for (const id of ids) {
        const rel = hashedRelativePath(repoKind(kind), id);
        expect(await storageOf(kind, id)).toBe("cluster");
        expect(await replicaChecksums("cluster", rel)).toEqual([1, 2, 3].map(() => before.get(`${kind}${id}`)));
        for (const dir of repoPaths("cluster", repoKind(kind), id)) fsck(dir);
        expect(await repositoryExists("default", rel)).toBe(false);
      }
    }

    // Step 5: nothing of any type remains on the source storage.
    const onDefault = await call(iso, "GET", "/api/v4/projects?repository_storage=default&per_page=100");
    expect(onDefault.body).toEqual([]);
    const onCluster = await call(iso, "GET", "/api/v4/projects?repository_storage=cluster&per_page=100");
    expect(onCluster.body.map((p: { id: number }) => p.id).sort()).toEqual([...projects.map((p) => p.id), fresh.id].sort());
    for (const kind of ["snippet", "group"] as const) expect(await queryAll({ index: GSI2, pk: `STORAGE#default#${kind}` })).toEqual([]);
    expect((await commit(iso, projects[0]!.id, "writable after the move")).status).toBe(201);
  });
});

describe("writers racing a bulk move", () => {
  it("loses no acknowledged write: each is present after the move or was refused as read-only", async () => {
    const projects = await Promise.all([1, 2, 3, 4].map(() => newProject(iso)));
    for (const p of projects) expect(await storageOf("project", p.id)).toBe("cluster");
    const since = await lastMoveId("project");
    const acked = new Map<number, string[]>(projects.map((p) => [p.id, []]));
    const unexpected: string[] = [];
    let stop = false;
    const writers = projects.map(async (p) => {
      for (let i = 0; !stop; i++) {
        const message = `race ${p.id} #${i}`;
        const res = await commit(iso, p.id, message);
        if (res.status === 201) acked.get(p.id)!.push(message);
        else if (res.status !== 409 || JSON.stringify(res.body) !== JSON.stringify(READ_ONLY)) unexpected.push(`${res.status} ${res.text}`);
      }
    });
    await new Promise((r) => setTimeout(r, 100));
    const res = await call(iso, "POST", "/api/v4/project_repository_storage_moves", { body: { source_storage_name: "cluster", destination_storage_name: "secondary" } });
    expect(res.status).toBe(202);
    // Only this test's projects and the previous test's are on the cluster; wait for these.
    const moves = await waitForBulk("project", projects.map((p) => p.id), since);
    stop = true;
    await Promise.all(writers);
    expect(unexpected).toEqual([]);
    expect(moves.map((m) => m.state)).toEqual(projects.map(() => "finished"));
    for (const p of projects) {
      const [dir] = repoPaths("secondary", "project", p.id);
      fsck(dir!);
      const subjects = commitSubjects(dir!);
      for (const message of acked.get(p.id)!) expect(subjects).toContain(message);
    }
  });
});

describe("destination omitted", () => {
  it("picks the destination by weight among the other storages, and refuses when there is none", async () => {
    expect((await setWeights({ default: 0, secondary: 0, cluster: 100 })).status).toBe(200);
    const onSecondary = (await call(iso, "GET", "/api/v4/projects?repository_storage=secondary&per_page=1")).body[0];
    const picked = await scheduleMove(iso, "project", onSecondary.id);
    expect(picked.destination_storage_name).toBe("cluster");
    expect((await waitForMove(iso, "project", picked.id)).state).toBe("finished");

    // Every other storage at weight 0: GitLab would fall back to `default`, which is the source here.
    expect((await setWeights({ default: 100, secondary: 0, cluster: 0 })).status).toBe(200);
    const onDefault = await newProject(iso);
    expect(await storageOf("project", onDefault.id)).toBe("default");
    const none = await call(iso, "POST", `/api/v4/projects/${onDefault.id}/repository_storage_moves`, { body: {} });
    expect(none.status).toBe(400);
    expect(none.body.message.destination_storage_name[0]).toMatch(/no storage other than the source has a weight above 0/);
    const bulk = await call(iso, "POST", "/api/v4/project_repository_storage_moves", { body: { source_storage_name: "default" } });
    expect(bulk).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^destination_storage_name is missing/) } });
    expect(await storageOf("project", onDefault.id)).toBe("default");
    expect((await call(iso, "GET", `/api/v4/projects/${onDefault.id}/repository_storage_moves`)).body).toEqual([]);
    expect((await commit(iso, onDefault.id, "still writable")).status).toBe(201);
  });
});

describe("bulk scheduling skips what it cannot move (driven by the operator CLI)", () => {
  it("leaves a read-only repository alone, moves the others, and watch/check report it", async () => {
    expect((await setWeights({ default: 100, secondary: 0, cluster: 0 })).status).toBe(200);
    const [locked, free] = await Promise.all([newProject(iso), newProject(iso)]);
    // Read-only for another reason (e.g. an earlier move that never finished): bulk logs and skips it.
    await updateItem({ pk: `PROJECT#${locked!.id}`, sk: "PROJECT", update: "SET readOnly = :t", values: { ":t": true } });
    const lines: string[] = [];
    const cli = (...argv: string[]) => runMovesCli(argv, connect({ FORGELINE_URL: iso.baseUrl, FORGELINE_TOKEN: iso.token }), (l) => lines.push(l), { intervalMs: 100, idlePolls: 5 });

    expect(await cli("schedule", "projects", "--from", "default", "--to", "secondary", "--watch")).toBe(0);
    expect(lines[0]).toMatch(/^Scheduled every project repository on default to secondary/);
    // The last bar: everything done except the one repository left on the source.
    const bar = /^projects +\[#+-+\] (\d+)\/(\d+) +finished (\d+)$/.exec(lines.at(-2)!);
    expect(bar, lines.join("\n")).not.toBeNull();
    expect(Number(bar![2])).toBe(Number(bar![1]) + 1);
    expect(bar![3]).toBe(bar![1]);
    expect(lines.at(-1)).toBe("1 project repository was skipped (read-only or busy) and remains on default; schedule again to retry.");
    expect((await call(iso, "GET", `/api/v4/projects/${locked!.id}/repository_storage_moves`)).body).toEqual([]);
    expect(await storageOf("project", locked!.id)).toBe("default");
    expect(await storageOf("project", free!.id)).toBe("secondary");

    lines.length = 0;
    expect(await cli("check", "default")).toBe(1);
    expect(lines).toEqual(["default: 1 projects, 0 snippets, 0 group wikis", "1 repositories remain on default."]);
    await updateItem({ pk: `PROJECT#${locked!.id}`, sk: "PROJECT", update: "SET readOnly = :f", values: { ":f": false } });
    expect(await cli("schedule", "projects", "--from", "default", "--to", "secondary", "--watch")).toBe(0);
    lines.length = 0;
    expect(await cli("check", "default")).toBe(0);
    expect(lines.at(-1)).toBe("Nothing remains on default.");
    lines.length = 0;
    expect(await cli("list", "projects", "--limit", "1")).toBe(0);
    expect(lines[0]).toMatch(new RegExp(`finished +default → secondary  project ${locked!.path_with_namespace}$`));
    const moveId = lines[0]!.trim().split(/\s+/)[0]!;
    lines.length = 0;
    expect(await cli("show", "project", moveId)).toBe(0);
    expect(lines[1]).toMatch(/^execution: arn:aws:states:.*:execution:StorageMoveMachine:bulk-project-from-default-.*\(bulk: bulk-project-from-default-/);
    expect(lines.slice(2).map((l) => l.trim().split(/\s+/).slice(1).join(" "))).toEqual(
      expect.arrayContaining(["scheduled", "started", "copied and verified to secondary", expect.stringMatching(/^replicated checksum [0-9a-f]{40}$/), "source copy removed from default", "finished"]),
    );
  });
});
