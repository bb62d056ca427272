/**
 * `GET /groups/:id/projects` (GitLab's groups.md "List projects"): the group's projects, its
 * subgroups' with `include_subgroups`, the projects shared with it unless `with_shared=false`, each
 * as the caller may see it, with the project list's filters, orders and totals.
 */
import { describe, it, expect, beforeAll } from "vitest";
import { api, adminToken, newUser, unique } from "../support/api.js";
import { addMember, idsOf, newGroup, newProject, share, type User } from "./support.js";

let owner: User;
let group: { id: number; full_path: string };
let sub: { id: number };
const p: Record<string, { id: number }> = {};

const list = (query = "", token?: string, id: number | string = group.id) => api("GET", `/api/v4/groups/${id}/projects${query}`, { token });

beforeAll(async () => {
  owner = await newUser();
  group = await newGroup(owner.token, { visibility: "public" });
  sub = await newGroup(owner.token, { parent_id: group.id, visibility: "public" });
  p.pub = await newProject(owner.token, { namespace_id: group.id, visibility: "public", name: "Alpha project", description: "first" });
  p.int = await newProject(owner.token, { namespace_id: group.id, visibility: "internal", name: "Beta" });
  p.priv = await newProject(owner.token, { namespace_id: group.id, visibility: "private", name: "alpha-two" });
  p.subProject = await newProject(owner.token, { namespace_id: sub.id, visibility: "public", name: "Gamma" });
  // A project elsewhere, shared with the group.
  const elsewhere = await newUser();
  p.shared = await newProject(elsewhere.token, { name: "Delta", visibility: "private" });
  await share(adminToken(), p.shared.id, group.id, 30);
  await api("POST", `/api/v4/projects/${p.int.id}/archive`, { token: owner.token });
});

describe("GET /groups/:id/projects", () => {
  it("lists a member the group's projects and the projects shared with it, newest first, with totals", async () => {
    const res = await list("", owner.token);
    expect(res.status, res.text).toBe(200);
    expect(idsOf(res.body)).toEqual([p.shared!.id, p.priv!.id, p.int!.id, p.pub!.id]);
    expect(res.headers.get("x-total")).toBe("4");
    expect(res.body[0]).toMatchObject({ namespace: { kind: "user" }, shared_with_groups: [expect.objectContaining({ group_id: group.id, group_access_level: 30 })] });
    expect(res.body.find((x: { id: number }) => x.id === p.pub!.id)).toMatchObject({ name: "Alpha project", namespace: { id: group.id, kind: "group", full_path: group.full_path }, http_url_to_repo: expect.any(String) });
    // By path too.
    expect(idsOf((await list("", owner.token, encodeURIComponent(group.full_path))).body)).toHaveLength(4);
  });

  it("takes with_shared, include_subgroups, archived, visibility, search and simple", async () => {
    expect(idsOf((await list("?with_shared=false", owner.token)).body)).toEqual([p.priv!.id, p.int!.id, p.pub!.id]);
    expect(idsOf((await list("?include_subgroups=true&with_shared=false", owner.token)).body)).toEqual([p.subProject!.id, p.priv!.id, p.int!.id, p.pub!.id]);
    expect(idsOf((await list("?archived=true", owner.token)).body)).toEqual([p.int!.id]);
    expect(idsOf((await list("?archived=false&with_shared=false", owner.token)).body)).toEqual([p.priv!.id, p.pub!.id]);
    expect(idsOf((await list("?visibility=private", owner.token)).body)).toEqual([p.shared!.id, p.priv!.id]);
    expect(idsOf((await list("?search=ALPHA", owner.token)).body)).toEqual([p.priv!.id, p.pub!.id]);
    expect(idsOf((await list("?search=first", owner.token)).body)).toEqual([p.pub!.id]);
    const simple = await list("?simple=true&per_page=1", owner.token);
    expect(Object.keys(simple.body[0])).not.toContain("visibility");
    expect(simple.body[0]).toHaveProperty("path_with_namespace");
    expect(simple.headers.get("x-total")).toBe("4");
    expect(simple.headers.get("x-next-page")).toBe("2");
  });

  it("orders by name, path, id and similarity, asc or desc", async () => {
    const names = async (q: string) => ((await list(`${q}&with_shared=false`, owner.token)).body as Array<{ name: string }>).map((x) => x.name);
    expect(await names("?order_by=name&sort=asc")).toEqual(["Alpha project", "alpha-two", "Beta"]);
    expect(await names("?order_by=path&sort=desc")).toEqual(["Beta", "alpha-two", "Alpha project"]);
    expect(await names("?order_by=id&sort=asc")).toEqual(["Alpha project", "Beta", "alpha-two"]);
    expect(await names("?order_by=similarity&search=alpha-two&sort=desc")).toEqual(["alpha-two"]);
    expect(await names("?order_by=similarity&search=alpha")).toEqual(["Alpha project", "alpha-two"]);
    expect(await names("?order_by=similarity&sort=desc")).toEqual(["Alpha project", "alpha-two", "Beta"]);
  });

  it("shows others only what they may see: anonymous public only, signed-in public and internal, members everything", async () => {
    const anonymous = await list();
    expect(anonymous.status).toBe(200);
    expect(idsOf(anonymous.body)).toEqual([p.pub!.id]);
    expect(Object.keys(anonymous.body[0])).not.toContain("visibility");
    const stranger = await newUser();
    expect(idsOf((await list("", stranger.token)).body)).toEqual([p.int!.id, p.pub!.id]);
    // A direct member of one private project sees it too.
    await addMember(owner.token, "projects", p.priv!.id, stranger.id, 10);
    expect(idsOf((await list("", stranger.token)).body)).toEqual([p.priv!.id, p.int!.id, p.pub!.id]);
    // A group member reaches every project of the group and the shared one.
    const member = await newUser();
    await addMember(owner.token, "groups", group.id, member.id, 20);
    expect(idsOf((await list("", member.token)).body)).toEqual([p.shared!.id, p.priv!.id, p.int!.id, p.pub!.id]);
    // Administrators see everything.
    expect(idsOf((await list("", adminToken())).body)).toEqual([p.shared!.id, p.priv!.id, p.int!.id, p.pub!.id]);
  });

  it("owned and min_access_level count the caller's own memberships", async () => {
    const dev = await newUser();
    await addMember(owner.token, "groups", group.id, dev.id, 30);
    await addMember(owner.token, "projects", p.pub!.id, dev.id, 40);
    expect(idsOf((await list("?min_access_level=40", dev.token)).body)).toEqual([p.pub!.id]);
    expect(idsOf((await list("?min_access_level=30", dev.token)).body)).toEqual([p.shared!.id, p.priv!.id, p.int!.id, p.pub!.id]);
    expect(idsOf((await list("?owned=true", dev.token)).body)).toEqual([]);
    expect(idsOf((await list("?owned=true&with_shared=false", owner.token)).body)).toEqual([p.priv!.id, p.int!.id, p.pub!.id]);
    // An administrator who is no member owns none of them.
    expect(idsOf((await list("?owned=true", adminToken())).body)).toEqual([]);
    expect(idsOf((await list("?starred=true", owner.token)).body)).toEqual([]);
    expect(idsOf((await list("?topic=ruby", owner.token)).body)).toEqual([]);
  });

  it("answers 404 for a group the caller cannot see, 400 for bad parameters", async () => {
    const hidden = await newGroup(owner.token);
    const stranger = await newUser();
    expect(await list("", stranger.token, hidden.id)).toMatchObject({ status: 404, body: { message: "404 Group Not Found" } });
    expect(await list("", undefined, hidden.id)).toMatchObject({ status: 404, body: { message: "404 Group Not Found" } });
    expect(await list("", owner.token, unique("nope"))).toMatchObject({ status: 404 });
    expect(await list("?order_by=stars", owner.token)).toMatchObject({ status: 400, body: { error: "order_by does not have a valid value" } });
    expect(await list("?visibility=secret", owner.token)).toMatchObject({ status: 400, body: { error: "visibility does not have a valid value" } });
    expect(await list("?min_access_level=35", owner.token)).toMatchObject({ status: 400 });
    expect(await list("?archived=maybe", owner.token)).toMatchObject({ status: 400 });
  });
});
