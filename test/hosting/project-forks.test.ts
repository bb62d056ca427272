/**
 * `POST /projects/:id/fork` and `GET /projects/:id/forks`: a fork is a new project whose repository
 * is a full copy of its source's (no shared objects), made through the source's write path.
 */
import { describe, it, expect, beforeAll } from "vitest";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { api, newUser, unique } from "../support/api.js";
import { commitSubjects, fsck, git, repoPaths } from "../support/git.js";
import { updateItem } from "../../functions/platform/db/table.js";

type User = Awaited<ReturnType<typeof newUser>>;
let owner: User;
let forker: User;
let stranger: User;

beforeAll(async () => {
  [owner, forker, stranger] = await Promise.all([newUser(), newUser(), newUser()]);
});

async function newProject(token: string, body: Record<string, unknown> = {}) {
  const res = await api("POST", "/api/v4/projects", { token, body: { name: unique("src"), initialize_with_readme: true, ...body } });
  expect(res.status).toBe(201);
  return res.body;
}

async function commit(token: string, id: number, file: string) {
  const res = await api("POST", `/api/v4/projects/${id}/repository/commits`, { token, body: { branch: "main", commit_message: `add ${file}`, actions: [{ action: "create", file_path: file, content: file }] } });
  expect(res.status).toBe(201);
}

const setReadOnly = (id: number, readOnly: boolean) => updateItem({ pk: `PROJECT#${id}`, sk: "PROJECT", update: "SET readOnly = :r", values: { ":r": readOnly } });

describe("POST /projects/:id/fork", () => {
  it("copies the whole repository into a new project of the caller's choice, sharing nothing on disk", async () => {
    const source = await newProject(owner.token, { visibility: "public" });
    await commit(owner.token, source.id, "a.txt");
    const res = await api("POST", `/api/v4/projects/${source.id}/fork`, { token: forker.token, body: { namespace: forker.username } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ path_with_namespace: `${forker.username}/${source.path}`, name: source.name, visibility: "public", forked_from_project: { id: source.id, path_with_namespace: source.path_with_namespace } });
    const fork = res.body;

    const [sourceDir] = repoPaths("default", "project", source.id);
    const [forkDir] = repoPaths("default", "project", fork.id);
    fsck(forkDir!);
    expect(commitSubjects(forkDir!)).toEqual(["add a.txt", "Initial commit"]);
    expect(git(forkDir!, "rev-parse", "main")).toBe(git(sourceDir!, "rev-parse", "main"));
    expect(existsSync(join(forkDir!, "objects", "info", "alternates"))).toBe(false);

    // Each goes its own way afterwards.
    await commit(forker.token, fork.id, "b.txt");
    expect(commitSubjects(sourceDir!)).toEqual(["add a.txt", "Initial commit"]);

    const read = await api("GET", `/api/v4/projects/${fork.id}`, { token: forker.token });
    expect(read.body.forked_from_project).toMatchObject({ id: source.id });
    expect((await api("GET", `/api/v4/projects/${source.id}`, { token: owner.token })).body.forks_count).toBe(1);
    const plain = await api("GET", `/api/v4/projects/${source.id}`, { token: owner.token });
    expect(plain.body.forked_from_project).toBeUndefined();
  });

  it("takes the target from namespace_id, namespace_path or namespace, a name and path of its own, and never a wider visibility", async () => {
    const source = await newProject(owner.token, { visibility: "internal" });
    const group = (await api("POST", "/api/v4/groups", { token: forker.token, body: { name: unique("G"), path: unique("g"), visibility: "public" } })).body;
    const byId = await api("POST", `/api/v4/projects/${source.id}/fork`, { token: forker.token, body: { namespace_id: group.id, visibility: "public" } });
    expect(byId).toMatchObject({ status: 201, body: { namespace: { id: group.id }, visibility: "internal" } });
    const byPath = await api("POST", `/api/v4/projects/${source.id}/fork`, { token: forker.token, body: { namespace_path: group.full_path, path: "other", name: "Other", visibility: "private" } });
    expect(byPath).toMatchObject({ status: 201, body: { path_with_namespace: `${group.full_path}/other`, name: "Other", visibility: "private" } });
    const mine = await api("POST", `/api/v4/projects/${source.id}/fork`, { token: forker.token });
    expect(mine).toMatchObject({ status: 201, body: { namespace: { full_path: forker.username } } });
  });

  it("answers a taken path with GitLab's 409 and records no second fork", async () => {
    const source = await newProject(owner.token, { visibility: "public" });
    expect((await api("POST", `/api/v4/projects/${source.id}/fork`, { token: forker.token })).status).toBe(201);
    const again = await api("POST", `/api/v4/projects/${source.id}/fork`, { token: forker.token });
    expect(again).toMatchObject({ status: 409, body: { message: { path: ["has already been taken"], name: ["has already been taken"] } } });
    const forks = await api("GET", `/api/v4/projects/${source.id}/forks`, { token: forker.token });
    expect(forks.body).toHaveLength(1);
  });

  it("needs the source's code and a namespace the caller may create projects in", async () => {
    const hidden = await newProject(owner.token);
    expect((await api("POST", `/api/v4/projects/${hidden.id}/fork`, {})).status).toBe(401);
    expect((await api("POST", `/api/v4/projects/${hidden.id}/fork`, { token: stranger.token })).status).toBe(404);
    const open = await newProject(owner.token, { visibility: "public" });
    const group = (await api("POST", "/api/v4/groups", { token: owner.token, body: { name: unique("G"), path: unique("g") } })).body;
    const intoOthers = await api("POST", `/api/v4/projects/${open.id}/fork`, { token: stranger.token, body: { namespace_id: group.id } });
    expect(intoOthers).toMatchObject({ status: 404, body: { message: "404 Namespace Not Found" } });
    const intoUser = await api("POST", `/api/v4/projects/${open.id}/fork`, { token: stranger.token, body: { namespace: owner.username } });
    expect(intoUser.status).toBe(404);
  });

  it("rejects bad input in GitLab's format", async () => {
    const source = await newProject(owner.token, { visibility: "public" });
    const badPath = await api("POST", `/api/v4/projects/${source.id}/fork`, { token: forker.token, body: { path: "-bad path" } });
    expect(badPath.status).toBe(400);
    // An undeclared parameter (`shared`) is dropped, never the reason for a 400; the declared one is checked.
    const badVisibility = await api("POST", `/api/v4/projects/${source.id}/fork`, { token: forker.token, body: { visibility: "secret", shared: true } });
    expect(badVisibility).toMatchObject({ status: 400, body: { error: "visibility does not have a valid value" } });
  });

  it("is refused like every write while the source is being moved (read-only)", async () => {
    const source = await newProject(owner.token, { visibility: "public" });
    await setReadOnly(source.id, true);
    try {
      const res = await api("POST", `/api/v4/projects/${source.id}/fork`, { token: forker.token });
      expect(res).toMatchObject({ status: 409, body: { message: "The repository is temporarily read-only. Please try again later." } });
      expect(res.headers.get("retry-after")).toBe("30");
    } finally {
      await setReadOnly(source.id, false);
    }
    expect((await api("GET", `/api/v4/projects/${source.id}/forks`, { token: owner.token })).body).toEqual([]);
    expect((await api("GET", `/api/v4/projects/${encodeURIComponent(`${forker.username}/${source.path}`)}`, { token: forker.token })).status).toBe(404);
    expect((await api("POST", `/api/v4/projects/${source.id}/fork`, { token: forker.token })).status).toBe(201);
  });
});

describe("GET /projects/:id/forks", () => {
  it("lists the forks the caller may see, with GitLab's filters, and forgets deleted ones", async () => {
    const source = await newProject(owner.token, { visibility: "public" });
    const open = (await api("POST", `/api/v4/projects/${source.id}/fork`, { token: forker.token, body: { path: "open-fork" } })).body;
    const closed = (await api("POST", `/api/v4/projects/${source.id}/fork`, { token: forker.token, body: { path: "closed-fork", visibility: "private" } })).body;
    const ids = (res: { body: Array<{ id: number }> }) => res.body.map((p) => p.id);

    const asForker = await api("GET", `/api/v4/projects/${source.id}/forks`, { token: forker.token });
    expect(ids(asForker)).toEqual([closed.id, open.id]);
    expect(asForker.headers.get("x-total")).toBe("2");
    expect(asForker.body[0].forked_from_project).toMatchObject({ id: source.id });
    expect(ids(await api("GET", `/api/v4/projects/${source.id}/forks`, { token: stranger.token }))).toEqual([open.id]);
    expect(ids(await api("GET", `/api/v4/projects/${source.id}/forks`))).toEqual([open.id]);
    expect(ids(await api("GET", `/api/v4/projects/${source.id}/forks?visibility=private`, { token: forker.token }))).toEqual([closed.id]);
    expect(ids(await api("GET", `/api/v4/projects/${source.id}/forks?search=open&sort=asc`, { token: forker.token }))).toEqual([open.id]);
    expect(ids(await api("GET", `/api/v4/projects/${source.id}/forks?owned=true`, { token: stranger.token }))).toEqual([]);
    expect(ids(await api("GET", `/api/v4/projects/${source.id}/forks?order_by=path&sort=asc`, { token: forker.token }))).toEqual([closed.id, open.id]);

    expect((await api("DELETE", `/api/v4/projects/${closed.id}`, { token: forker.token })).status).toBe(202);
    expect(ids(await api("GET", `/api/v4/projects/${source.id}/forks`, { token: forker.token }))).toEqual([open.id]);
    expect((await api("GET", `/api/v4/projects/${source.id}`, { token: owner.token })).body.forks_count).toBe(1);
  });

  it("keeps a fork whose source is deleted, unlinked", async () => {
    const source = await newProject(owner.token, { visibility: "public" });
    const fork = (await api("POST", `/api/v4/projects/${source.id}/fork`, { token: forker.token })).body;
    expect((await api("DELETE", `/api/v4/projects/${source.id}`, { token: owner.token })).status).toBe(202);
    const read = await api("GET", `/api/v4/projects/${fork.id}`, { token: forker.token });
    expect(read.status).toBe(200);
    expect(read.body.forked_from_project).toBeUndefined();
    expect((await api("DELETE", `/api/v4/projects/${fork.id}`, { token: forker.token })).status).toBe(202);
  });

  it("answers 404 for a project the caller cannot see and 400 for bad filters", async () => {
    const hidden = await newProject(owner.token);
    expect((await api("GET", `/api/v4/projects/${hidden.id}/forks`, { token: stranger.token })).status).toBe(404);
    expect((await api("GET", `/api/v4/projects/${hidden.id}/forks?order_by=stars`, { token: owner.token })).status).toBe(400);
  });
});
