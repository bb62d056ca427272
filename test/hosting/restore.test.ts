/**
 * `POST /projects/:id/restore` and `POST /groups/:id/restore` (GitLab Premium's restore of delayed
 * deletions): nothing here is marked for later deletion, so they answer GitLab's 400s, after its
 * permission checks.
 */
import { describe, it, expect } from "vitest";
import { api, adminToken, newUser } from "../support/api.js";
import { findGroup } from "../../functions/hosting/domain/groups.js";
import { scheduleGroupDeletion } from "../../functions/hosting/domain/group-deletion.js";
import { addMember, newGroup, newProject } from "./support.js";

describe("POST /projects/:id/restore", () => {
  it("is GitLab's 400 for a project not marked for deletion, for its Owners; 403 below, 404 for strangers", async () => {
    const [owner, maintainer, stranger] = await Promise.all([newUser(), newUser(), newUser()]);
    const project = await newProject(owner.token);
    await addMember(owner.token, "projects", project.id, maintainer.id, 40);
    for (const token of [owner.token, adminToken()]) {
      expect(await api("POST", `/api/v4/projects/${project.id}/restore`, { token })).toMatchObject({ status: 400, body: { message: "Project has not been marked for deletion" } });
    }
    expect(await api("POST", `/api/v4/projects/${project.id}/restore`, { token: maintainer.token })).toMatchObject({ status: 403 });
    expect(await api("POST", `/api/v4/projects/${project.id}/restore`, { token: stranger.token })).toMatchObject({ status: 404, body: { message: "404 Project Not Found" } });
    expect((await api("POST", `/api/v4/projects/${project.id}/restore`)).status).toBe(401);
  });
});

describe("POST /groups/:id/restore", () => {
  it("is GitLab's 400 for a group not marked, and for one whose deletion runs; Owners only", async () => {
    const [owner, maintainer, stranger] = await Promise.all([newUser(), newUser(), newUser()]);
    const group = await newGroup(owner.token);
    await addMember(owner.token, "groups", group.id, maintainer.id, 40);
    expect(await api("POST", `/api/v4/groups/${group.id}/restore`, { token: owner.token })).toMatchObject({ status: 400, body: { message: "Group has not been marked for deletion" } });
    expect(await api("POST", `/api/v4/groups/${group.id}/restore`, { token: maintainer.token })).toMatchObject({ status: 403 });
    expect(await api("POST", `/api/v4/groups/${group.id}/restore`, { token: stranger.token })).toMatchObject({ status: 404, body: { message: "404 Group Not Found" } });
    // Marked: its contents are being deleted by the job, which cannot be undone.
    await newProject(owner.token, { namespace_id: group.id });
    await scheduleGroupDeletion((await findGroup(group.id))!);
    expect(await api("POST", `/api/v4/groups/${group.id}/restore`, { token: owner.token })).toMatchObject({ status: 400, body: { message: "Group deletion is in progress" } });
  });
});
