/**
 * GitLab's instance-wide snippet lists: `GET /snippets/public` (everyone's public personal snippets)
 * and `GET /snippets/all` (every snippet the caller may see; an administrator's, every snippet),
 * newest first, with `created_after`/`created_before`, pages, and `repository_storage` for
 * administrators. Both are literal routes, never `/snippets/:id`.
 */
import { describe, it, expect, beforeAll } from "vitest";
import { api, adminToken, newUser, unique } from "../support/api.js";

type User = Awaited<ReturnType<typeof newUser>>;
let author: User, reader: User, member: User;
/** Before any snippet of this file: the lists are narrowed to what this file creates. */
let since: string;
const ids: Record<string, number> = {};

async function snippet(token: string, visibility: string, projectId?: number) {
  const path = projectId ? `/api/v4/projects/${projectId}/snippets` : "/api/v4/snippets";
  const res = await api("POST", path, { token, body: { title: unique("list"), visibility, files: [{ file_path: "a.txt", content: "a" }] } });
  expect(res.status, res.text).toBe(201);
  return res.body.id as number;
}

const listed = async (path: string, token: string | undefined) => {
  const res = await api("GET", `${path}${path.includes("?") ? "&" : "?"}created_after=${encodeURIComponent(since)}&per_page=100`, { token });
  expect(res.status, res.text).toBe(200);
  return (res.body as Array<{ id: number }>).map((s) => s.id).filter((id) => Object.values(ids).includes(id));
};
const named = (...names: string[]) => names.map((n) => ids[n]!).sort((a, b) => b - a);

beforeAll(async () => {
  [author, reader, member] = await Promise.all([newUser(), newUser(), newUser()]);
  since = new Date(Date.now() - 1000).toISOString();
  ids.public = await snippet(author.token, "public");
  ids.internal = await snippet(author.token, "internal");
  ids.private = await snippet(author.token, "private");
  ids.readersOwn = await snippet(reader.token, "private");
  const open = await api("POST", "/api/v4/projects", { token: author.token, body: { name: unique("open"), visibility: "public" } });
  const closed = await api("POST", "/api/v4/projects", { token: author.token, body: { name: unique("closed"), visibility: "private" } });
  expect((await api("POST", `/api/v4/projects/${closed.body.id}/members`, { token: author.token, body: { user_id: member.id, access_level: 20 } })).status).toBe(201);
  ids.openProjectPublic = await snippet(author.token, "public", open.body.id);
  ids.openProjectPrivate = await snippet(author.token, "private", open.body.id);
  ids.closedProjectPrivate = await snippet(author.token, "private", closed.body.id);
});

describe("GET /snippets/public", () => {
  it("lists everyone's public personal snippets, newest first, to signed-in callers", async () => {
    expect(await listed("/api/v4/snippets/public", reader.token)).toEqual(named("public"));
    expect(await listed("/api/v4/snippets/public", author.token)).toEqual(named("public"));
    expect((await api("GET", "/api/v4/snippets/public")).status).toBe(401);
    const page = await api("GET", `/api/v4/snippets/public?created_after=${encodeURIComponent(since)}`, { token: reader.token });
    expect(page.body.find((s: { id: number }) => s.id === ids.public)).toMatchObject({ id: ids.public, visibility: "public", project_id: null, author: { id: author.id }, file_name: "a.txt" });
    expect(page.headers.get("x-page")).toBe("1");
  });

  it("filters by creation time, both bounds exclusive, and refuses a time that is none", async () => {
    const created = (await api("GET", `/api/v4/snippets/${ids.public}`, { token: author.token })).body.created_at as string;
    expect(await listed(`/api/v4/snippets/public?created_before=${encodeURIComponent(created)}`, reader.token)).toEqual([]);
    expect(await listed(`/api/v4/snippets/public?created_before=${encodeURIComponent(new Date(Date.parse(created) + 1).toISOString())}`, reader.token)).toEqual(named("public"));
    expect(await api("GET", "/api/v4/snippets/public?created_after=yesterday", { token: reader.token })).toMatchObject({ status: 400, body: { error: "created_after is invalid" } });
  });

  it("follows a snippet's visibility and its deletion", async () => {
    const id = await snippet(author.token, "private");
    ids.flipped = id;
    expect(await listed("/api/v4/snippets/public", reader.token)).not.toContain(id);
    expect((await api("PUT", `/api/v4/snippets/${id}`, { token: author.token, body: { visibility: "public" } })).status).toBe(200);
    expect(await listed("/api/v4/snippets/public", reader.token)).toContain(id);
    expect((await api("PUT", `/api/v4/snippets/${id}`, { token: author.token, body: { visibility: "internal" } })).status).toBe(200);
    expect(await listed("/api/v4/snippets/public", reader.token)).not.toContain(id);
    expect((await api("PUT", `/api/v4/snippets/${id}`, { token: author.token, body: { visibility: "public" } })).status).toBe(200);
    expect((await api("DELETE", `/api/v4/snippets/${id}`, { token: author.token })).status).toBe(204);
    expect(await listed("/api/v4/snippets/public", reader.token)).not.toContain(id);
    delete ids.flipped;
  });
});

describe("GET /snippets/all", () => {
  it("lists what a user may see: its own, others' public and internal ones, and those of projects it may read", async () => {
    expect(await listed("/api/v4/snippets/all", reader.token)).toEqual(named("public", "internal", "readersOwn", "openProjectPublic"));
    // A Reporter of the private project also sees its private snippets.
    expect(await listed("/api/v4/snippets/all", member.token)).toEqual(named("public", "internal", "openProjectPublic", "closedProjectPrivate"));
    expect(await listed("/api/v4/snippets/all", author.token)).toEqual(named("public", "internal", "private", "openProjectPublic", "openProjectPrivate", "closedProjectPrivate"));
    const all = await api("GET", `/api/v4/snippets/all?created_after=${encodeURIComponent(since)}&per_page=100`, { token: member.token });
    const projectSnippet = all.body.find((s: { id: number }) => s.id === ids.closedProjectPrivate);
    expect(projectSnippet.project_id).toEqual(expect.any(Number));
    expect(projectSnippet.web_url).toMatch(/\/-\/snippets\/\d+$/);
    expect(projectSnippet.web_url).not.toMatch(/\/\/[^/]+\/-\//);
    expect(projectSnippet).not.toHaveProperty("repository_storage");
    expect((await api("GET", "/api/v4/snippets/all")).status).toBe(401);
  });

  it("lists every snippet to an administrator, with its storage, narrowed by repository_storage", async () => {
    const everything = await listed("/api/v4/snippets/all", adminToken());
    expect(everything).toEqual(named("public", "internal", "private", "readersOwn", "openProjectPublic", "openProjectPrivate", "closedProjectPrivate"));
    const one = await api("GET", `/api/v4/snippets/${ids.private}`, { token: adminToken() });
    const storage = one.body.repository_storage as string;
    const onStorage = await listed(`/api/v4/snippets/all?repository_storage=${storage}`, adminToken());
    expect(onStorage).toContain(ids.private);
    expect(onStorage.length).toBeLessThanOrEqual(everything.length);
    expect(await listed("/api/v4/snippets/all?repository_storage=no-such-storage", adminToken())).toEqual([]);
    const page = await api("GET", `/api/v4/snippets/all?created_after=${encodeURIComponent(since)}&per_page=2`, { token: adminToken() });
    expect(page.body).toHaveLength(2);
    expect(page.body[0]).toHaveProperty("repository_storage");
    expect(page.headers.get("x-next-page")).toBe("2");
    expect(await api("GET", `/api/v4/snippets/all?repository_storage=${storage}`, { token: reader.token })).toMatchObject({ status: 403 });
  });
});
