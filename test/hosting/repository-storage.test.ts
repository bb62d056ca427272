/**
 * `repository_storage` on project create (an administrator places the repository on that storage)
 * and update (it schedules a repository storage move there, as GitLab does); `GET /projects/:id/storage`,
 * the administrator's view of where a repository lives.
 */
import { describe, it, expect, beforeAll } from "vitest";
import { existsSync } from "node:fs";
import { api, adminToken, baseUrl, newUser, unique } from "../support/api.js";
import { fsck, repoPaths } from "../support/git.js";
import { hashedRelativePath } from "../../functions/hosting/domain/git/storage.js";
import { waitForMove } from "../moves/support.js";

describe("repository_storage on projects", () => {
  let user: Awaited<ReturnType<typeof newUser>>;
  beforeAll(async () => {
    user = await newUser();
  });

  it("places an administrator's new project on the storage it names", async () => {
    for (const storage of ["secondary", "cluster"]) {
      const res = await api("POST", "/api/v4/projects", { token: adminToken(), body: { name: unique("placed"), repository_storage: storage, initialize_with_readme: true } });
      expect(res.status, res.text).toBe(201);
      expect(res.body.repository_storage).toBe(storage);
      for (const dir of repoPaths(storage, "project", res.body.id)) fsck(dir);
    }
  });

  it("refuses a storage that is not configured, and ignores the parameter from non-administrators", async () => {
    const unknown = await api("POST", "/api/v4/projects", { token: adminToken(), body: { name: unique("nowhere"), repository_storage: "nowhere" } });
    expect(unknown).toMatchObject({ status: 400, body: { message: { repository_storage: ["is not included in the list"] } } });
    const ignored = await api("POST", "/api/v4/projects", { token: user.token, body: { name: unique("mine"), repository_storage: "nowhere" } });
    expect(ignored.status, ignored.text).toBe(201);
    expect(ignored.body).not.toHaveProperty("repository_storage");
  });

  it("schedules a storage move when an administrator changes the storage of a project", async () => {
    const created = await api("POST", "/api/v4/projects", { token: adminToken(), body: { name: unique("moving"), repository_storage: "default", initialize_with_readme: true } });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as number;

    const updated = await api("PUT", `/api/v4/projects/${id}`, { token: adminToken(), body: { repository_storage: "secondary", description: "moving" } });
    expect(updated).toMatchObject({ status: 200, body: { id, description: "moving" } });
    const moves = await api("GET", `/api/v4/projects/${id}/repository_storage_moves`, { token: adminToken() });
    expect(moves.body).toHaveLength(1);
    expect(moves.body[0]).toMatchObject({ source_storage_name: "default", destination_storage_name: "secondary" });
    const done = await waitForMove({ baseUrl: baseUrl(), token: adminToken() }, "project", moves.body[0].id);
    expect(done.state).toBe("finished");
    expect((await api("GET", `/api/v4/projects/${id}`, { token: adminToken() })).body.repository_storage).toBe("secondary");
    for (const dir of repoPaths("secondary", "project", id)) fsck(dir);
    for (const dir of repoPaths("default", "project", id)) expect(existsSync(dir)).toBe(false);

    // The same storage again changes nothing; a non-administrator's storage is ignored.
    expect((await api("PUT", `/api/v4/projects/${id}`, { token: adminToken(), body: { repository_storage: "secondary" } })).status).toBe(200);
    const own = await api("POST", "/api/v4/projects", { token: user.token, body: { name: unique("own") } });
    expect((await api("PUT", `/api/v4/projects/${own.body.id}`, { token: user.token, body: { repository_storage: "cluster" } })).status).toBe(200);
    expect((await api("GET", `/api/v4/projects/${own.body.id}/repository_storage_moves`, { token: adminToken() })).body).toHaveLength(0);
    expect((await api("GET", `/api/v4/projects/${id}/repository_storage_moves`, { token: adminToken() })).body).toHaveLength(1);
  });
});

describe("GET /projects/:id/storage", () => {
  it("tells an administrator the storage and hashed disk path, refuses others, and follows a move", async () => {
    const user = await newUser();
    const own = await api("POST", "/api/v4/projects", { token: user.token, body: { name: unique("where"), initialize_with_readme: true } });
    const id = own.body.id as number;
    const placed = (await api("GET", `/api/v4/projects/${id}`, { token: adminToken() })).body.repository_storage;
    const seen = await api("GET", `/api/v4/projects/${id}/storage`, { token: adminToken() });
    expect(seen).toMatchObject({ status: 200, body: { project_id: id, repository_storage: placed, created_at: own.body.created_at } });
    expect(seen.body.disk_path).toBe(hashedRelativePath("project", id).replace(/\.git$/, ""));
    // By path too; the owner is not an administrator (GitLab: 403), and an unknown project is a 404.
    expect((await api("GET", `/api/v4/projects/${encodeURIComponent(own.body.path_with_namespace)}/storage`, { token: adminToken() })).body.project_id).toBe(id);
    expect(await api("GET", `/api/v4/projects/${id}/storage`, { token: user.token })).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
    expect(await api("GET", "/api/v4/projects/999999999/storage", { token: adminToken() })).toMatchObject({ status: 404, body: { message: "404 Project Not Found" } });

    const to = placed === "secondary" ? "cluster" : "secondary";
    expect((await api("PUT", `/api/v4/projects/${id}`, { token: adminToken(), body: { repository_storage: to } })).status).toBe(200);
    const moves = await api("GET", `/api/v4/projects/${id}/repository_storage_moves`, { token: adminToken() });
    expect((await waitForMove({ baseUrl: baseUrl(), token: adminToken() }, "project", moves.body[0].id)).state).toBe("finished");
    expect((await api("GET", `/api/v4/projects/${id}/storage`, { token: adminToken() })).body.repository_storage).toBe(to);
  });
});
