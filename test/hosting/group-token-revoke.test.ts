/** `POST /groups/:id/tokens/revoke` (GitLab's groups.md "Revoke a token"). */
import { describe, it, expect } from "vitest";
import { api, adminToken, newUser } from "../support/api.js";
import { addMember, newGroup, newProject } from "./support.js";

describe("POST /groups/:id/tokens/revoke", () => {
  it("revokes the token of a member of the group, a subgroup or one of their projects, and answers it", async () => {
    const [owner, inSub, inProject] = await Promise.all([newUser(), newUser(), newUser()]);
    const group = await newGroup(owner.token);
    const sub = await newGroup(owner.token, { parent_id: group.id });
    const project = await newProject(owner.token, { namespace_id: sub.id });
    await addMember(owner.token, "groups", sub.id, inSub.id, 30);
    await addMember(owner.token, "projects", project.id, inProject.id, 20);
    for (const u of [inSub, inProject]) {
      const res = await api("POST", `/api/v4/groups/${group.id}/tokens/revoke`, { token: owner.token, body: { token: u.token } });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ user_id: u.id, revoked: true, active: false, scopes: ["api"], name: "test" });
      expect(res.body).not.toHaveProperty("token");
      expect((await api("GET", "/api/v4/user", { token: u.token })).status).toBe(401);
    }
    // Revoked already: still its details.
    expect(await api("POST", `/api/v4/groups/${group.id}/tokens/revoke`, { token: owner.token, body: { token: inSub.token } })).toMatchObject({ status: 200, body: { revoked: true } });
  });

  it("answers a bare 404 for a token without access, an unknown one, or a subgroup; 403 below Owner", async () => {
    const [owner, maintainer, outsider] = await Promise.all([newUser(), newUser(), newUser()]);
    const group = await newGroup(owner.token);
    const sub = await newGroup(owner.token, { parent_id: group.id });
    await addMember(owner.token, "groups", group.id, maintainer.id, 40);
    const revoke = (id: number, token: string, by = owner.token) => api("POST", `/api/v4/groups/${id}/tokens/revoke`, { token: by, body: { token } });
    expect(await revoke(group.id, outsider.token)).toMatchObject({ status: 404, body: { message: "404 Not Found" } });
    expect((await api("GET", "/api/v4/user", { token: outsider.token })).status).toBe(200);
    expect(await revoke(group.id, "glpat-00000000000000000000")).toMatchObject({ status: 404 });
    expect(await revoke(sub.id, maintainer.token)).toMatchObject({ status: 404 });
    expect(await revoke(group.id, owner.token, maintainer.token)).toMatchObject({ status: 403 });
    expect(await api("POST", `/api/v4/groups/${group.id}/tokens/revoke`, { token: owner.token, body: {} })).toMatchObject({ status: 400, body: { error: "token is missing" } });
    expect((await api("GET", "/api/v4/user", { token: maintainer.token })).status).toBe(200);
    // An administrator is an Owner everywhere.
    expect((await revoke(group.id, maintainer.token, adminToken())).status).toBe(200);
  });
});
