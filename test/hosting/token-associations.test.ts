/**
 * `GET /personal_access_tokens/self/associations` (GitLab's personal_access_tokens.md "List token
 * associations"): the groups and projects the token's user is a member of, with its levels.
 */
import { describe, it, expect } from "vitest";
import { api, newUser } from "../support/api.js";
import { addMember, idsOf, newGroup, newProject } from "./support.js";

describe("GET /personal_access_tokens/self/associations", () => {
  it("lists the user's groups (subgroups included) and projects with its levels, by min_access_level and page", async () => {
    const [owner, user] = await Promise.all([newUser(), newUser()]);
    const group = await newGroup(owner.token);
    const sub = await newGroup(owner.token, { parent_id: group.id });
    const inGroup = await newProject(owner.token, { namespace_id: group.id });
    const inSub = await newProject(owner.token, { namespace_id: sub.id });
    const direct = await newProject(owner.token);
    const unrelated = await newProject(owner.token, { visibility: "public" });
    await addMember(owner.token, "groups", group.id, user.id, 30);
    await addMember(owner.token, "projects", direct.id, user.id, 40);
    await addMember(owner.token, "projects", inGroup.id, user.id, 20);

    const res = await api("GET", "/api/v4/personal_access_tokens/self/associations", { token: user.token });
    expect(res.status, res.text).toBe(200);
    expect(idsOf(res.body.groups)).toEqual([group.id, sub.id]);
    expect(res.body.groups[0]).toEqual({ id: group.id, web_url: expect.stringMatching(new RegExp(`/groups/${group.full_path}$`)), name: group.name, parent_id: null, access_levels: 30, visibility: "private" });
    expect(res.body.groups[1]).toMatchObject({ parent_id: group.id, access_levels: 30 });
    expect(idsOf(res.body.projects)).toEqual([inGroup.id, inSub.id, direct.id]);
    expect(idsOf(res.body.projects)).not.toContain(unrelated.id);
    const byId = (id: number) => res.body.projects.find((p: { id: number }) => p.id === id);
    expect(byId(inGroup.id).access_levels).toEqual({ project_access_level: 20, group_access_level: 30 });
    expect(byId(inSub.id).access_levels).toEqual({ project_access_level: null, group_access_level: 30 });
    expect(byId(direct.id)).toMatchObject({ access_levels: { project_access_level: 40, group_access_level: null }, path_with_namespace: direct.path_with_namespace, namespace: { kind: "user" } });

    const maintainer = await api("GET", "/api/v4/personal_access_tokens/self/associations?min_access_level=40", { token: user.token });
    expect(maintainer.body).toEqual({ groups: [], projects: [expect.objectContaining({ id: direct.id })] });
    const first = await api("GET", "/api/v4/personal_access_tokens/self/associations?per_page=1", { token: user.token });
    expect(idsOf(first.body.groups)).toEqual([group.id]);
    expect(idsOf(first.body.projects)).toEqual([inGroup.id]);
    expect(first.headers.get("x-next-page")).toBe("2");
    const third = await api("GET", "/api/v4/personal_access_tokens/self/associations?per_page=1&page=3", { token: user.token });
    expect(third.body).toEqual({ groups: [], projects: [expect.objectContaining({ id: direct.id })] });
    expect(third.headers.get("x-next-page")).toBe("");
  });

  it("needs a token that reads the API; refuses bad parameters", async () => {
    const [narrow, user] = await Promise.all([newUser({ scopes: ["read_user"] }), newUser()]);
    expect((await api("GET", "/api/v4/personal_access_tokens/self/associations")).status).toBe(401);
    expect(await api("GET", "/api/v4/personal_access_tokens/self/associations", { token: narrow.token })).toMatchObject({ status: 403, body: { error: "insufficient_scope" } });
    expect(await api("GET", "/api/v4/personal_access_tokens/self/associations?min_access_level=15", { token: user.token })).toMatchObject({ status: 400 });
    expect(await api("GET", "/api/v4/personal_access_tokens/self/associations", { token: user.token })).toMatchObject({ status: 200, body: { groups: [], projects: [] } });
  });
});
