/**
 * `DELETE /groups/:id` of a group that still holds projects and subgroups, as GitLab does it: 202,
 * the group marked, its projects with their repositories, its subgroups and their wikis deleted,
 * then the group: by the request for a few seconds, and by a job (`runGroupDeletions`, the
 * `group-deletions` cron) for what is left. Refused while a repository of the tree is in a storage
 * move; a move that starts after the mark is waited for. The shared runtime runs no cron timers:
 * the test runs the job itself.
 */
import { describe, it, expect, beforeAll } from "vitest";
import { existsSync } from "node:fs";
import { api, newUser, unique } from "../support/api.js";
import { repoPaths } from "../support/git.js";
import { getItem, updateItem } from "../../functions/platform/db/table.js";
import { deleteMarkedGroup, runGroupDeletions, scheduleGroupDeletion } from "../../functions/hosting/domain/group-deletion.js";
import { pendingGroupDeletionKey } from "../../functions/hosting/domain/keys.js";
import { findGroup } from "../../functions/hosting/domain/groups.js";

let owner: Awaited<ReturnType<typeof newUser>>;

beforeAll(async () => {
  owner = await newUser();
});

const call = (method: string, path: string, body?: unknown, token = owner.token) => api(method, path, { token, body });

async function group(parentId?: number) {
  const res = await call("POST", "/api/v4/groups", { name: "Doomed", path: unique("doomed"), ...(parentId ? { parent_id: parentId } : {}) });
  expect(res.status).toBe(201);
  return res.body as { id: number; full_path: string };
}

async function projectIn(namespaceId: number) {
  const res = await call("POST", "/api/v4/projects", { name: "In it", path: unique("in-it"), namespace_id: namespaceId, initialize_with_readme: true });
  expect(res.status).toBe(201);
  const item = await getItem(`PROJECT#${res.body.id}`, "PROJECT");
  return { id: res.body.id as number, path: res.body.path_with_namespace as string, dirs: repoPaths(item!.storage as string, "project", res.body.id) };
}

async function wikiOf(groupId: number) {
  expect((await call("POST", `/api/v4/groups/${groupId}/wikis`, { title: "Home", content: "soon gone" })).status).toBe(201);
  const item = await getItem(`GROUP#${groupId}`, "GROUP");
  return repoPaths(item!.storage as string, "group-wiki", groupId);
}

const setMoving = (kind: "PROJECT" | "GROUP", id: number, moving: boolean) =>
  updateItem({ pk: `${kind}#${id}`, sk: kind, update: moving ? "SET readOnly = :t" : "REMOVE readOnly", values: moving ? { ":t": true } : undefined });

describe("deleting a group with its contents", () => {
  it("answers 202 and deletes projects, repositories, subgroups and wikis, then the group", async () => {
    const top = await group();
    const sub = await group(top.id);
    const [inTop, inSub] = [await projectIn(top.id), await projectIn(sub.id)];
    const wikiDirs = await wikiOf(sub.id);
    const paths = [...inTop.dirs, ...inSub.dirs, ...wikiDirs];
    expect(paths.every((p) => existsSync(p))).toBe(true);

    const stranger = await newUser();
    expect((await call("DELETE", `/api/v4/groups/${top.id}`, undefined, stranger.token)).status).toBe(404);
    const res = await call("DELETE", `/api/v4/groups/${top.id}`);
    expect(res).toMatchObject({ status: 202, body: { message: "202 Accepted" } });
    // A tree this small is gone before the answer.
    for (const path of [`/api/v4/groups/${top.id}`, `/api/v4/groups/${sub.id}`, `/api/v4/projects/${inTop.id}`, `/api/v4/projects/${inSub.id}`]) {
      expect((await call("GET", path)).status, path).toBe(404);
    }
    expect(paths.filter((p) => existsSync(p))).toEqual([]);
    expect(await getItem(pendingGroupDeletionKey(top.id).pk, pendingGroupDeletionKey(top.id).sk)).toBeUndefined();
    // Their paths are free again.
    expect((await call("POST", "/api/v4/groups", { name: "Again", path: top.full_path })).status).toBe(201);
  });

  it("leaves what the request had no time for to the job, which shows the group marked until then", async () => {
    const top = await group();
    const sub = await group(top.id);
    const projects = [await projectIn(top.id), await projectIn(sub.id)];
    await scheduleGroupDeletion((await findGroup(top.id))!);
    // A request out of time deletes nothing more; the marker stays.
    expect(await deleteMarkedGroup(top.id, Date.now() - 1)).toEqual({ deletedGroups: 0, deletedProjects: 0, pending: 1 });
    expect((await call("GET", `/api/v4/groups/${top.id}`)).body).toMatchObject({ id: top.id, marked_for_deletion_on: new Date().toISOString().slice(0, 10) });
    // Asking again changes nothing but the answer's timing.
    expect((await call("DELETE", `/api/v4/groups/${top.id}`)).status).toBe(202);

    const run = await runGroupDeletions();
    expect(run.pending).toBe(0);
    for (const path of [`/api/v4/groups/${top.id}`, `/api/v4/groups/${sub.id}`, ...projects.map((p) => `/api/v4/projects/${p.id}`)]) expect((await call("GET", path)).status, path).toBe(404);
    expect(projects.flatMap((p) => p.dirs).filter((d) => existsSync(d))).toEqual([]);
    expect(await getItem(pendingGroupDeletionKey(top.id).pk, pendingGroupDeletionKey(top.id).sk)).toBeUndefined();
  });

  it("is refused while a repository of the tree is being moved, and waits for a move that starts after the mark", async () => {
    const top = await group();
    const sub = await group(top.id);
    const moving = await projectIn(sub.id);
    const other = await projectIn(top.id);

    await setMoving("PROJECT", moving.id, true);
    const refused = await call("DELETE", `/api/v4/groups/${top.id}`);
    expect(refused).toMatchObject({ status: 409, body: { message: "The repository is temporarily read-only. Please try again later." } });
    expect(refused.headers.get("retry-after")).toBe("30");
    expect((await call("GET", `/api/v4/groups/${top.id}`)).body.marked_for_deletion_on).toBeUndefined();
    await setMoving("PROJECT", moving.id, false);

    // A move of one of its projects starts after the mark: that project and the groups above it wait.
    await scheduleGroupDeletion((await findGroup(top.id))!);
    await setMoving("PROJECT", moving.id, true);
    const first = await runGroupDeletions();
    expect(first.pending).toBeGreaterThanOrEqual(1);
    expect((await call("GET", `/api/v4/projects/${other.id}`)).status).toBe(404);
    expect((await call("GET", `/api/v4/projects/${moving.id}`)).status).toBe(200);
    expect(moving.dirs.every((p) => existsSync(p))).toBe(true);
    expect((await call("GET", `/api/v4/groups/${sub.id}`)).status).toBe(200);
    expect((await call("GET", `/api/v4/groups/${top.id}`)).body.marked_for_deletion_on).toBeDefined();

    // The move ends: the next run finishes the job.
    await setMoving("PROJECT", moving.id, false);
    await runGroupDeletions();
    for (const path of [`/api/v4/groups/${top.id}`, `/api/v4/groups/${sub.id}`, `/api/v4/projects/${moving.id}`]) expect((await call("GET", path)).status, path).toBe(404);
    expect(moving.dirs.filter((p) => existsSync(p))).toEqual([]);
  });

  it("finishes when two runs of the job overlap (a run that finds its work done by the other goes on)", async () => {
    const top = await group();
    const projects = [await projectIn(top.id), await projectIn(top.id), await projectIn((await group(top.id)).id)];
    await scheduleGroupDeletion((await findGroup(top.id))!);
    const runs = await Promise.all([runGroupDeletions(), runGroupDeletions()]);
    expect(runs.reduce((n, r) => n + r.deletedGroups, 0)).toBeGreaterThanOrEqual(2);
    expect((await call("GET", `/api/v4/groups/${top.id}`)).status).toBe(404);
    for (const p of projects) expect((await call("GET", `/api/v4/projects/${p.id}`)).status).toBe(404);
    expect(projects.flatMap((p) => p.dirs).filter((d) => existsSync(d))).toEqual([]);
  });

  it("still deletes an empty group at once, and only for an owner", async () => {
    const empty = await group();
    const member = await newUser();
    expect((await call("POST", `/api/v4/groups/${empty.id}/members`, { user_id: member.id, access_level: 40 })).status).toBe(201);
    expect((await call("DELETE", `/api/v4/groups/${empty.id}`, undefined, member.token)).status).toBe(403);
    expect((await call("DELETE", `/api/v4/groups/${empty.id}`)).status).toBe(202);
    expect((await call("GET", `/api/v4/groups/${empty.id}`)).status).toBe(404);
  });
});
