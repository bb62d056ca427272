/**
 * User administration as GitLab's API offers it: editing, block/unblock, ban/unban (states, answers,
 * a blocked user's tokens), deletion (sole-owner rule, hard_delete, what goes with the user), the
 * user's projects and memberships, impersonation tokens, avatars and GitLab's e-mail rule. Auth and
 * bad input of each route are also covered by test/platform/route-matrix.test.ts.
 */
import { describe, it, expect } from "vitest";
import { api, adminToken, baseUrl, newUser, unique } from "../support/api.js";
import { updateItem } from "../../functions/platform/db/table.js";
import { runGroupDeletions } from "../../functions/hosting/domain/group-deletion.js";

/** The 1×1 PNG GitLab's own avatar fixtures use the shape of. */
const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201e2a0b2a90000000049454e44ae426082", "hex");

async function multipart(method: string, path: string, fields: Record<string, string | Blob>, name = "avatar.png") {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) typeof v === "string" ? form.append(k, v) : form.append(k, v, name);
  const res = await fetch(`${baseUrl()}${path}`, { method, headers: { "Private-Token": adminToken() }, body: form });
  return { status: res.status, body: (await res.json()) as any };
}

describe("PUT /users/:id", () => {
  it("changes only the fields given, shows them, and refuses what GitLab's validations refuse", async () => {
    const u = await newUser();
    const me = (await api("GET", `/api/v4/users/${u.id}`, { token: adminToken() })).body;
    // python-gitlab always sends email, username and name along with the change.
    const res = await api("PUT", `/api/v4/users/${u.id}`, { token: adminToken(), body: { email: me.email, username: me.username, name: me.name, bio: "This is the user bio", location: "Lab" } });
    expect(res).toMatchObject({ status: 200, body: { bio: "This is the user bio", location: "Lab", name: me.name, email: me.email } });
    expect((await api("GET", `/api/v4/users/${u.id}`, { token: adminToken() })).body).toMatchObject({ bio: "This is the user bio", location: "Lab" });
    // The administrators' note on a user is theirs: the user does not see it.
    expect((await api("PUT", `/api/v4/users/${u.id}`, { token: adminToken(), body: { note: "watch this one" } })).body.note).toBe("watch this one");
    expect((await api("GET", `/api/v4/users/${u.id}`, { token: adminToken() })).body.note).toBe("watch this one");
    const ownView = (await api("GET", `/api/v4/users/${u.id}`, { token: u.token })).body;
    expect(ownView.bio).toBe("This is the user bio");
    expect(ownView).not.toHaveProperty("note");
    expect((await api("GET", "/api/v4/user", { token: u.token })).body).not.toHaveProperty("note");
    expect(await api("PUT", `/api/v4/users/${u.id}`, { token: adminToken(), body: { username: `${u.username}x` } })).toMatchObject({ status: 400, body: { message: { username: [expect.any(String)] } } });
    const other = await newUser();
    const otherEmail = (await api("GET", `/api/v4/users/${other.id}`, { token: adminToken() })).body.email;
    expect(await api("PUT", `/api/v4/users/${u.id}`, { token: adminToken(), body: { email: otherEmail } })).toMatchObject({ status: 400, body: { message: { email: ["has already been taken"] } } });
    expect(await api("PUT", `/api/v4/users/${u.id}`, { token: adminToken(), body: { email: "no-at-sign" } })).toMatchObject({ status: 400, body: { error: "email is invalid" } });
    // An undeclared parameter (external identities are not kept here) is dropped, not refused.
    const ignored = await api("PUT", `/api/v4/users/${u.id}`, { token: adminToken(), body: { provider: "x", bio: "still mine" } });
    expect(ignored).toMatchObject({ status: 200, body: { bio: "still mine" } });
    expect(ignored.body).not.toHaveProperty("provider");
    expect((await api("PUT", `/api/v4/users/${u.id}`, { token: u.token, body: { bio: "mine" } })).status).toBe(403);
    expect((await api("PUT", "/api/v4/users/999999999", { token: adminToken(), body: { bio: "x" } })).status).toBe(404);
  });

  it("moves the e-mail's uniqueness with it", async () => {
    const u = await newUser();
    const email = `${unique("moved")}@example.com`;
    expect((await api("PUT", `/api/v4/users/${u.id}`, { token: adminToken(), body: { email } })).body.email).toBe(email);
    const again = await api("POST", "/api/v4/users", { token: adminToken(), body: { username: unique("u").replace("-", "_"), name: "n", email } });
    expect(again).toMatchObject({ status: 409, body: { message: "Email has already been taken" } });
  });
});

describe("POST /users with GitLab's e-mail rule and an avatar", () => {
  it("accepts an address GitLab accepts (user@email.com.2)", async () => {
    const username = unique("dotted").replace("-", "_");
    const res = await api("POST", "/api/v4/users", { token: adminToken(), body: { username, name: "n", email: `${username}@email.com.2` } });
    expect(res).toMatchObject({ status: 201, body: { email: `${username}@email.com.2` } });
    expect((await api("POST", "/api/v4/users", { token: adminToken(), body: { username: `${username}_b`, name: "n", email: "two words@x" } })).status).toBe(400);
  });

  it("stores a multipart avatar and serves the same bytes at avatar_url, as python-gitlab sends it", async () => {
    const username = unique("avatar").replace("-", "_");
    // python-gitlab adds an empty `file` part to every multipart request.
    const res = await multipart("POST", "/api/v4/users", { username, name: "n", email: `${username}@example.com`, password: "secret123", file: "", avatar: new Blob([PNG]) });
    expect(res.status).toBe(201);
    expect(res.body.avatar_url).toBe(`${baseUrl()}/uploads/-/system/user/avatar/${res.body.id}/avatar.png`);
    const image = await fetch(res.body.avatar_url);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await image.arrayBuffer()).equals(PNG)).toBe(true);
    expect((await fetch(`${baseUrl()}/uploads/-/system/user/avatar/${res.body.id}/other.png`)).status).toBe(404);
  });

  it("refuses an avatar that is not an image, or too big, in GitLab's words", async () => {
    const username = unique("avatar").replace("-", "_");
    const text = await multipart("POST", "/api/v4/users", { username, name: "n", email: `${username}@example.com`, avatar: new Blob(["#!/bin/sh\necho not an image\n"]) });
    expect(text).toMatchObject({ status: 400, body: { message: { avatar: [expect.stringMatching(/^file format is not supported/)] } } });
    const big = await multipart("POST", "/api/v4/users", { username, name: "n", email: `${username}@example.com`, avatar: new Blob([PNG, Buffer.alloc(201 * 1024)]) });
    expect(big).toMatchObject({ status: 400, body: { message: { avatar: ["is too big (should be at most 200 KiB)"] } } });
    expect((await api("GET", `/api/v4/users?username=${username}`, { token: adminToken() })).body).toEqual([]);
  });
});

describe("block, unblock, ban, unban", () => {
  it("answers as GitLab does and stops a blocked user's tokens", async () => {
    const u = await newUser();
    const block = () => api("POST", `/api/v4/users/${u.id}/block`, { token: adminToken() });
    const unblock = () => api("POST", `/api/v4/users/${u.id}/unblock`, { token: adminToken() });
    expect(await block()).toMatchObject({ status: 201, body: true });
    expect((await api("GET", "/api/v4/user", { token: u.token })).status).toBe(401);
    const blocked = await api("GET", "/api/v4/users?blocked=true&per_page=100", { token: adminToken() });
    expect(blocked.body.map((x: { id: number }) => x.id)).toContain(u.id);
    expect((await api("GET", `/api/v4/users/${u.id}`, { token: adminToken() })).body.state).toBe("blocked");
    const again = await block();
    expect(again.status).toBe(201);
    expect(again.body).toBeNull();
    expect(await unblock()).toMatchObject({ status: 201, body: true });
    expect((await api("GET", "/api/v4/user", { token: u.token })).status).toBe(200);
    expect(await unblock()).toMatchObject({ status: 201, body: false });
    const stillBlocked = await api("GET", "/api/v4/users?blocked=true&per_page=100", { token: adminToken() });
    expect(stillBlocked.body.map((x: { id: number }) => x.id)).not.toContain(u.id);
  });

  it("bans only active users and unbans only banned ones, with GitLab's 403 otherwise", async () => {
    const u = await newUser();
    expect(await api("POST", `/api/v4/users/${u.id}/unban`, { token: adminToken() })).toMatchObject({ status: 403, body: { message: "You cannot unban active users." } });
    expect(await api("POST", `/api/v4/users/${u.id}/ban`, { token: adminToken() })).toMatchObject({ status: 201, body: true });
    expect((await api("GET", `/api/v4/users/${u.id}`, { token: adminToken() })).body.state).toBe("banned");
    expect((await api("GET", "/api/v4/user", { token: u.token })).status).toBe(401);
    expect(await api("POST", `/api/v4/users/${u.id}/ban`, { token: adminToken() })).toMatchObject({ status: 403, body: { message: "You cannot ban banned users." } });
    expect(await api("POST", `/api/v4/users/${u.id}/unban`, { token: adminToken() })).toMatchObject({ status: 201, body: true });
    expect((await api("GET", `/api/v4/users/${u.id}`, { token: adminToken() })).body.state).toBe("active");
    expect((await api("POST", "/api/v4/users/999999999/ban", { token: adminToken() })).status).toBe(404);
    expect((await api("POST", `/api/v4/users/${u.id}/block`, { token: u.token })).status).toBe(403);
  });
});

describe("DELETE /users/:id", () => {
  it("removes the user, its personal projects and snippets, and its tokens", async () => {
    const u = await newUser();
    const project = await api("POST", "/api/v4/projects", { token: u.token, body: { name: unique("mine"), initialize_with_readme: true } });
    expect(project.status).toBe(201);
    const snippet = await api("POST", "/api/v4/snippets", { token: u.token, body: { title: "s", files: [{ file_path: "a.txt", content: "a" }] } });
    expect(snippet.status).toBe(201);
    expect((await api("DELETE", `/api/v4/users/${u.id}`, { token: u.token })).status).toBe(403);
    expect((await api("DELETE", `/api/v4/users/${u.id}`, { token: adminToken() })).status).toBe(204);
    expect((await api("GET", `/api/v4/users/${u.id}`, { token: adminToken() })).status).toBe(404);
    expect((await api("GET", `/api/v4/users?username=${u.username}`, { token: adminToken() })).body).toEqual([]);
    expect((await api("GET", "/api/v4/user", { token: u.token })).status).toBe(401);
    expect((await api("GET", `/api/v4/projects/${project.body.id}`, { token: adminToken() })).status).toBe(404);
    expect((await api("GET", `/api/v4/snippets/${snippet.body.id}`, { token: adminToken() })).status).toBe(404);
    expect((await api("DELETE", `/api/v4/users/${u.id}`, { token: adminToken() })).status).toBe(404);
    // The username is free again.
    const reused = await api("POST", "/api/v4/users", { token: adminToken(), body: { username: u.username, name: "again", email: `${u.username}@example.com` } });
    expect(reused.status).toBe(201);
  });

  it("refuses the sole owner of a group unless hard_delete, which also removes the group, with its contents by the job", async () => {
    const u = await newUser();
    const group = await api("POST", "/api/v4/groups", { token: u.token, body: { name: "solo", path: unique("solo") } });
    expect(group.status).toBe(201);
    expect(await api("DELETE", `/api/v4/users/${u.id}`, { token: adminToken() })).toMatchObject({ status: 409, body: { message: "User cannot be removed while is the sole-owner of a group" } });
    expect((await api("GET", "/api/v4/user", { token: u.token })).status).toBe(200);
    const project = await api("POST", "/api/v4/projects", { token: u.token, body: { name: unique("in-group"), namespace_id: group.body.id } });
    expect(project.status).toBe(201);
    expect((await api("DELETE", `/api/v4/users/${u.id}?hard_delete=true`, { token: adminToken() })).status).toBe(204);
    expect((await api("GET", "/api/v4/user", { token: u.token })).status).toBe(401);
    // The group holds a project: it is marked, and the group-deletion job deletes both.
    expect((await api("GET", `/api/v4/groups/${group.body.id}`, { token: adminToken() })).body.marked_for_deletion_on).toBeDefined();
    await runGroupDeletions();
    expect((await api("GET", `/api/v4/projects/${project.body.id}`, { token: adminToken() })).status).toBe(404);
    expect((await api("GET", `/api/v4/groups/${group.body.id}`, { token: adminToken() })).status).toBe(404);

    // An empty group of a sole owner goes at once.
    const v = await newUser();
    const empty = await api("POST", "/api/v4/groups", { token: v.token, body: { name: "solo", path: unique("solo") } });
    expect((await api("DELETE", `/api/v4/users/${v.id}?hard_delete=true`, { token: adminToken() })).status).toBe(204);
    expect((await api("GET", `/api/v4/groups/${empty.body.id}`, { token: adminToken() })).status).toBe(404);
  });

  it("is refused with the read-only error while a storage move holds one of the user's repositories", async () => {
    const u = await newUser();
    const project = await api("POST", "/api/v4/projects", { token: u.token, body: { name: unique("moving"), initialize_with_readme: true } });
    await updateItem({ pk: `PROJECT#${project.body.id}`, sk: "PROJECT", update: "SET readOnly = :t", values: { ":t": true } });
    const res = await api("DELETE", `/api/v4/users/${u.id}`, { token: adminToken() });
    expect(res).toMatchObject({ status: 409, body: { message: "The repository is temporarily read-only. Please try again later." } });
    expect((await api("GET", "/api/v4/user", { token: u.token })).status).toBe(200);
    expect((await api("GET", `/api/v4/projects/${project.body.id}`, { token: u.token })).status).toBe(200);
  });

  it("lets a co-owned group stay and only drops the membership", async () => {
    const [u, co] = [await newUser(), await newUser()];
    const group = await api("POST", "/api/v4/groups", { token: u.token, body: { name: "duo", path: unique("duo") } });
    expect((await api("POST", `/api/v4/groups/${group.body.id}/members`, { token: u.token, body: { user_id: co.id, access_level: 50 } })).status).toBe(201);
    expect((await api("DELETE", `/api/v4/users/${u.id}`, { token: adminToken() })).status).toBe(204);
    const members = await api("GET", `/api/v4/groups/${group.body.id}/members`, { token: co.token });
    expect(members.body.map((m: { id: number }) => m.id)).toEqual([co.id]);
  });
});

describe("GET /users/:id/projects and /users/:id/memberships", () => {
  it("lists the user's personal projects the caller may see, and memberships by type", async () => {
    const [u, stranger] = [await newUser(), await newUser()];
    expect((await api("GET", `/api/v4/users/${u.id}/projects`, { token: stranger.token })).body).toEqual([]);
    const priv = await api("POST", "/api/v4/projects", { token: u.token, body: { name: unique("priv") } });
    const pub = await api("POST", "/api/v4/projects", { token: u.token, body: { name: unique("pub"), visibility: "public" } });
    const group = await api("POST", "/api/v4/groups", { token: u.token, body: { name: "g", path: unique("g") } });
    await api("POST", "/api/v4/projects", { token: u.token, body: { name: unique("grp"), namespace_id: group.body.id } });
    const own = await api("GET", `/api/v4/users/${u.id}/projects`, { token: u.token });
    expect(own.body.map((p: { id: number }) => p.id)).toEqual([pub.body.id, priv.body.id]);
    expect((await api("GET", `/api/v4/users/${u.id}/projects`, { token: stranger.token })).body.map((p: { id: number }) => p.id)).toEqual([pub.body.id]);
    expect((await api("GET", "/api/v4/users/999999999/projects", { token: stranger.token })).status).toBe(404);

    const all = await api("GET", `/api/v4/users/${u.id}/memberships`, { token: adminToken() });
    expect(all.body).toContainEqual({ source_id: group.body.id, source_name: "g", source_type: "Namespace", access_level: 50 });
    expect(all.body).toContainEqual(expect.objectContaining({ source_id: priv.body.id, source_type: "Project" }));
    const groupsOnly = await api("GET", `/api/v4/users/${u.id}/memberships?type=Namespace`, { token: adminToken() });
    expect(groupsOnly.body.map((m: { source_type: string }) => m.source_type)).toEqual(["Namespace"]);
    expect(await api("GET", `/api/v4/users/${u.id}/memberships?type=Group`, { token: adminToken() })).toMatchObject({ status: 400, body: { error: "type does not have a valid value" } });
    expect((await api("GET", `/api/v4/users/${u.id}/memberships`, { token: u.token })).status).toBe(403);
  });
});

describe("GET /users/:id/projects: who sees which personal project", () => {
  it("follows each project's visibility and membership, pages with totals, and only lists the user's own namespace", async () => {
    const [u, member, stranger, other] = [await newUser(), await newUser(), await newUser(), await newUser()];
    const create = async (name: string, visibility: string) => (await api("POST", "/api/v4/projects", { token: u.token, body: { name: unique(name), visibility } })).body.id as number;
    const priv = await create("priv", "private");
    const internal = await create("internal", "internal");
    const pub = await create("pub", "public");
    const shared = await create("shared", "private");
    expect((await api("POST", `/api/v4/projects/${shared}/members`, { token: u.token, body: { user_id: member.id, access_level: 20 } })).status).toBe(201);
    // Being a member of someone else's project does not make it one of the user's projects.
    const others = (await api("POST", "/api/v4/projects", { token: other.token, body: { name: unique("theirs"), visibility: "public" } })).body.id as number;
    expect((await api("POST", `/api/v4/projects/${others}/members`, { token: other.token, body: { user_id: u.id, access_level: 40 } })).status).toBe(201);

    const ids = async (token?: string, query = "") => (await api("GET", `/api/v4/users/${u.id}/projects${query}`, { token })).body.map((p: { id: number }) => p.id);
    expect(await ids()).toEqual([pub]);
    expect(await ids(stranger.token)).toEqual([pub, internal]);
    expect(await ids(member.token)).toEqual([shared, pub, internal]);
    expect(await ids(u.token)).toEqual([shared, pub, internal, priv]);
    expect(await ids(adminToken())).toEqual([shared, pub, internal, priv]);

    const second = await api("GET", `/api/v4/users/${u.id}/projects?per_page=2&page=2`, { token: u.token });
    expect(second.body.map((p: { id: number }) => p.id)).toEqual([internal, priv]);
    expect(second.headers.get("x-total")).toBe("4");
    expect(second.headers.get("x-total-pages")).toBe("2");

    // A change of visibility and a deletion show in the list at once.
    expect((await api("PUT", `/api/v4/projects/${priv}`, { token: u.token, body: { visibility: "public" } })).status).toBe(200);
    expect((await api("DELETE", `/api/v4/projects/${pub}`, { token: u.token })).status).toBe(202);
    expect(await ids()).toEqual([priv]);
  });
});

describe("impersonation tokens", () => {
  it("issues a token that acts as the user, lists it by state, and revokes it", async () => {
    const u = await newUser();
    const base = `/api/v4/users/${u.id}/impersonation_tokens`;
    const created = await api("POST", base, { token: adminToken(), body: { name: "token1", scopes: ["api", "read_user"] } });
    expect(created).toMatchObject({ status: 201, body: { name: "token1", impersonation: true, active: true, scopes: ["api", "read_user"], user_id: u.id } });
    expect((await api("GET", "/api/v4/user", { token: created.body.token })).body.username).toBe(u.username);
    const ids = async (state: string) => (await api("GET", `${base}?state=${state}`, { token: adminToken() })).body.map((t: { id: number }) => t.id);
    expect(await ids("active")).toEqual([created.body.id]);
    // The user's own personal access token is not an impersonation token.
    expect(await ids("all")).toEqual([created.body.id]);
    expect((await api("GET", `${base}/${created.body.id}`, { token: adminToken() })).body).toMatchObject({ id: created.body.id, impersonation: true });
    expect((await api("GET", `${base}/${created.body.id}`, { token: adminToken() })).body.token).toBeUndefined();
    expect((await api("DELETE", `${base}/${created.body.id}`, { token: adminToken() })).status).toBe(204);
    expect(await ids("active")).toEqual([]);
    expect(await ids("inactive")).toEqual([created.body.id]);
    expect((await api("GET", "/api/v4/user", { token: created.body.token })).status).toBe(401);
    expect(await api("GET", `${base}/999999999`, { token: adminToken() })).toMatchObject({ status: 404, body: { message: "404 Impersonation Token Not Found" } });
    expect((await api("POST", base, { token: adminToken(), body: { name: "x", scopes: ["everything"] } })).status).toBe(400);
    expect((await api("POST", base, { token: u.token, body: { name: "x", scopes: ["api"] } })).status).toBe(403);
  });
});

describe("token descriptions", () => {
  it("keeps the description given at creation, for impersonation and personal access tokens alike", async () => {
    const u = await newUser();
    const kinds = ["impersonation_tokens", "personal_access_tokens"] as const;
    for (const kind of kinds) {
      const created = await api("POST", `/api/v4/users/${u.id}/${kind}`, { token: adminToken(), body: { name: `t-${kind}`, scopes: ["api"], description: `for ${kind}` } });
      expect(created).toMatchObject({ status: 201, body: { description: `for ${kind}` } });
      const shown = kind === "impersonation_tokens" ? `/api/v4/users/${u.id}/impersonation_tokens/${created.body.id}` : `/api/v4/personal_access_tokens/${created.body.id}`;
      expect((await api("GET", shown, { token: adminToken() })).body.description).toBe(`for ${kind}`);
    }
    const plain = await api("POST", `/api/v4/users/${u.id}/impersonation_tokens`, { token: adminToken(), body: { name: "plain", scopes: ["api"] } });
    expect(plain.body.description).toBeNull();
  });
});
