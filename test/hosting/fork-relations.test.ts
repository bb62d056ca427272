/** Fork relations between existing projects (GitLab's project_forks.md): create and delete the link. */
import { describe, it, expect } from "vitest";
import { api, newUser } from "../support/api.js";
import { addMember, idsOf, newProject } from "./support.js";

describe("POST /projects/:id/fork/:forked_from_id and DELETE /projects/:id/fork", () => {
  it("links an existing project to its source and unlinks it: forked_from_project, the fork list and forks_count follow", async () => {
    const owner = await newUser();
    const [source, other] = await Promise.all([newProject(owner.token, { initialize_with_readme: true }), newProject(owner.token)]);
    const linked = await api("POST", `/api/v4/projects/${other.id}/fork/${source.id}`, { token: owner.token });
    expect(linked.status, linked.text).toBe(201);
    expect(linked.body).toMatchObject({ id: other.id, forked_from_project: { id: source.id, path_with_namespace: source.path_with_namespace } });
    expect((await api("GET", `/api/v4/projects/${other.id}`, { token: owner.token })).body.forked_from_project.id).toBe(source.id);
    expect(idsOf((await api("GET", `/api/v4/projects/${source.id}/forks`, { token: owner.token })).body)).toEqual([other.id]);
    expect((await api("GET", `/api/v4/projects/${source.id}`, { token: owner.token })).body.forks_count).toBe(1);
    // Once a fork, always the same source until unlinked.
    expect(await api("POST", `/api/v4/projects/${other.id}/fork/${source.id}`, { token: owner.token })).toMatchObject({ status: 409, body: { message: "Project already forked" } });

    expect((await api("DELETE", `/api/v4/projects/${other.id}/fork`, { token: owner.token })).status).toBe(204);
    expect((await api("GET", `/api/v4/projects/${other.id}`, { token: owner.token })).body.forked_from_project).toBeUndefined();
    expect((await api("GET", `/api/v4/projects/${source.id}/forks`, { token: owner.token })).body).toEqual([]);
    expect((await api("GET", `/api/v4/projects/${source.id}`, { token: owner.token })).body.forks_count).toBe(0);
    // Not a fork any more: GitLab's 304.
    expect((await api("DELETE", `/api/v4/projects/${other.id}/fork`, { token: owner.token })).status).toBe(304);
  });

  it("refuses a cycle: the project itself, or one of its own forks, as the source", async () => {
    const owner = await newUser();
    const [a, b] = await Promise.all([newProject(owner.token), newProject(owner.token)]);
    expect(await api("POST", `/api/v4/projects/${a.id}/fork/${a.id}`, { token: owner.token })).toMatchObject({ status: 400, body: { message: "400 Bad request - Project cannot be a fork of itself or of its own forks" } });
    expect((await api("POST", `/api/v4/projects/${b.id}/fork/${a.id}`, { token: owner.token })).status).toBe(201);
    expect((await api("POST", `/api/v4/projects/${a.id}/fork/${b.id}`, { token: owner.token })).status).toBe(400);
  });

  it("needs Owner on the project and code access to the source to link, and Owner to unlink", async () => {
    const [owner, maintainer, developer, stranger] = await Promise.all([newUser(), newUser(), newUser(), newUser()]);
    const project = await newProject(owner.token);
    const hidden = await newProject(stranger.token);
    const open = await newProject(stranger.token, { visibility: "public" });
    await addMember(owner.token, "projects", project.id, maintainer.id, 40);
    await addMember(owner.token, "projects", project.id, developer.id, 30);
    expect(await api("POST", `/api/v4/projects/${project.id}/fork/${open.id}`, { token: developer.token })).toMatchObject({ status: 403 });
    expect(await api("POST", `/api/v4/projects/${project.id}/fork/${open.id}`, { token: maintainer.token })).toMatchObject({ status: 403 });
    expect(await api("POST", `/api/v4/projects/${project.id}/fork/${hidden.id}`, { token: owner.token })).toMatchObject({ status: 404, body: { message: "404 Project Not Found" } });
    expect(await api("POST", `/api/v4/projects/${project.id}/fork/${open.id}`, { token: stranger.token })).toMatchObject({ status: 404, body: { message: "404 Project Not Found" } });
    expect((await api("POST", `/api/v4/projects/${project.id}/fork/${open.id}`, { token: owner.token })).status).toBe(201);
    expect(await api("DELETE", `/api/v4/projects/${project.id}/fork`, { token: maintainer.token })).toMatchObject({ status: 403 });
    expect((await api("DELETE", `/api/v4/projects/${project.id}/fork`)).status).toBe(401);
    expect((await api("DELETE", `/api/v4/projects/${project.id}/fork`, { token: owner.token })).status).toBe(204);
  });
});
