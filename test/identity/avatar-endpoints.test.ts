/**
 * Avatars beyond `PUT /users/:id`: a user's own upload (`PUT /user/avatar`), the lookup by e-mail
 * (`GET /avatar`, avatar.md) and the project and group avatar downloads.
 */
import { describe, it, expect } from "vitest";
import { api, adminToken, baseUrl, newUser } from "../support/api.js";
import { newGroup, newProject } from "../hosting/support.js";

const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201e2a0b2a90000000049454e44ae426082", "hex");

async function upload(token: string | undefined, parts: Record<string, Blob | string>) {
  const form = new FormData();
  for (const [k, v] of Object.entries(parts)) typeof v === "string" ? form.append(k, v) : form.append(k, v, "avatar.png");
  const res = await fetch(`${baseUrl()}/api/v4/user/avatar`, { method: "PUT", headers: token ? { "Private-Token": token } : {}, body: form });
  return { status: res.status, body: (await res.json()) as any };
}

describe("PUT /user/avatar", () => {
  it("stores the caller's avatar and answers its URL, which serves the bytes", async () => {
    const u = await newUser();
    const res = await upload(u.token, { avatar: new Blob([PNG]) });
    expect(res).toEqual({ status: 200, body: { avatar_url: `${baseUrl()}/uploads/-/system/user/avatar/${u.id}/avatar.png` } });
    expect(Buffer.from(await (await fetch(res.body.avatar_url)).arrayBuffer())).toEqual(PNG);
    expect((await api("GET", "/api/v4/user", { token: u.token })).body.avatar_url).toBe(res.body.avatar_url);
  });

  it("refuses what GitLab refuses: no file, a big one, not an image, no token", async () => {
    const u = await newUser();
    expect(await upload(u.token, { avatar: "" })).toMatchObject({ status: 400, body: { error: "avatar is missing" } });
    expect(await upload(u.token, { avatar: new Blob([PNG, Buffer.alloc(201 * 1024)]) })).toMatchObject({ status: 400, body: { message: { avatar: ["is too big (should be at most 200 KiB)"] } } });
    expect(await upload(u.token, { avatar: new Blob(["plain text, long enough"]) })).toMatchObject({ status: 400, body: { message: { avatar: [expect.stringMatching(/^file format is not supported/)] } } });
    expect((await upload(undefined, { avatar: new Blob([PNG]) })).status).toBe(401);
  });
});

describe("GET /avatar", () => {
  it("answers a user's avatar URL for its own e-mail and for administrators, null otherwise", async () => {
    const [u, other] = await Promise.all([newUser(), newUser()]);
    await upload(u.token, { avatar: new Blob([PNG]) });
    const email = `${u.username}@example.com`;
    const url = `${baseUrl()}/uploads/-/system/user/avatar/${u.id}/avatar.png`;
    expect(await api("GET", `/api/v4/avatar?email=${encodeURIComponent(email.toUpperCase())}&size=32`, { token: u.token })).toMatchObject({ status: 200, body: { avatar_url: url } });
    expect((await api("GET", `/api/v4/avatar?email=${encodeURIComponent(email)}`, { token: adminToken() })).body).toEqual({ avatar_url: url });
    // E-mails are private here (no public e-mail): anyone else learns nothing, as for an unknown address.
    expect((await api("GET", `/api/v4/avatar?email=${encodeURIComponent(email)}`, { token: other.token })).body).toEqual({ avatar_url: null });
    expect((await api("GET", `/api/v4/avatar?email=${encodeURIComponent(email)}`)).body).toEqual({ avatar_url: null });
    expect((await api("GET", "/api/v4/avatar?email=nobody@example.com", { token: adminToken() })).body).toEqual({ avatar_url: null });
    // A user without an uploaded avatar has none to show.
    expect((await api("GET", `/api/v4/avatar?email=${encodeURIComponent(`${other.username}@example.com`)}`, { token: other.token })).body).toEqual({ avatar_url: null });
  });

  it("needs an e-mail", async () => {
    expect(await api("GET", "/api/v4/avatar")).toMatchObject({ status: 400, body: { error: "email is missing" } });
    expect(await api("GET", "/api/v4/avatar?email=a@b.c&size=big")).toMatchObject({ status: 400 });
  });
});

describe("GET /projects/:id/avatar and /groups/:id/avatar", () => {
  it("answers 404 Avatar Not Found to those who may see the container (none has an avatar here), its own 404 to others", async () => {
    const [owner, stranger] = await Promise.all([newUser(), newUser()]);
    const [project, group, open] = await Promise.all([newProject(owner.token), newGroup(owner.token), newProject(owner.token, { visibility: "public" })]);
    expect(await api("GET", `/api/v4/projects/${project.id}/avatar`, { token: owner.token })).toMatchObject({ status: 404, body: { message: "404 Avatar Not Found" } });
    expect(await api("GET", `/api/v4/groups/${group.id}/avatar`, { token: owner.token })).toMatchObject({ status: 404, body: { message: "404 Avatar Not Found" } });
    expect(await api("GET", `/api/v4/projects/${open.id}/avatar`)).toMatchObject({ status: 404, body: { message: "404 Avatar Not Found" } });
    expect(await api("GET", `/api/v4/projects/${project.id}/avatar`, { token: stranger.token })).toMatchObject({ status: 404, body: { message: "404 Project Not Found" } });
    expect(await api("GET", `/api/v4/groups/${group.id}/avatar`, { token: stranger.token })).toMatchObject({ status: 404, body: { message: "404 Group Not Found" } });
  });
});
