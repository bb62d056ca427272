/**
 * `GET /projects` as GitLab serves it: filters (`archived`, `owned`, `search`, `visibility`,
 * `simple`), orders and directions with their defaults and errors, `X-Total` on the administrator's
 * list (and on group and member lists), keyset pagination by id, and archiving (an archived project refuses pushes).
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { api, adminToken, newUser, requestAt, unique, type ApiResponse } from "../support/api.js";
import { ownRuntime } from "../support/own-runtime.js";
import { listAllProjects } from "../../functions/hosting/domain/projects.js";
import { Gitlab } from "@gitbeaker/rest";

const names = (res: { body: Array<{ name: string }> }) => res.body.map((p) => p.name);

/** Every page of a list, following `Link: rel="next"` as GitLab clients do. */
async function walk(first: string, token: string, base?: string): Promise<{ ids: number[]; pages: Array<{ headers: Headers; count: number }> }> {
  const ids: number[] = [];
  const pages: Array<{ headers: Headers; count: number }> = [];
  let path: string | undefined = first;
  while (path) {
    const res: ApiResponse = base ? await requestAt(base, "GET", path, { token }) : await api("GET", path, { token });
    expect(res.status, res.text).toBe(200);
    ids.push(...res.body.map((p: { id: number }) => p.id));
    pages.push({ headers: res.headers, count: res.body.length });
    const next: string | undefined = /<([^>]+)>; rel="next"/.exec(res.headers.get("link") ?? "")?.[1];
    path = next ? new URL(next).pathname + new URL(next).search : undefined;
  }
  return { ids, pages };
}

describe("project list filters and orders", () => {
  let owner: Awaited<ReturnType<typeof newUser>>;
  let other: Awaited<ReturnType<typeof newUser>>;
  const tag = unique("lists").replace("-", "");
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    owner = await newUser();
    other = await newUser();
    // Created in this order, so ids ascend b, c, a while names ascend a, b, c.
    for (const [key, visibility] of [["b", "public"], ["c", "private"], ["a", "internal"]] as const) {
      const res = await api("POST", "/api/v4/projects", { token: owner.token, body: { name: `${tag} ${key}`, path: `${tag}-${key}`, visibility } });
      expect(res.status, res.text).toBe(201);
      ids[key] = res.body.id;
    }
    const foreign = await api("POST", "/api/v4/projects", { token: other.token, body: { name: `${tag} z`, visibility: "public" } });
    ids.z = foreign.body.id;
  });

  it("orders by created_at descending by default and by each field in either direction", async () => {
    const q = `/api/v4/projects?search=${tag}&owned=true`;
    expect(names(await api("GET", q, { token: owner.token }))).toEqual([`${tag} a`, `${tag} c`, `${tag} b`]);
    expect(names(await api("GET", `${q}&order_by=id&sort=asc`, { token: owner.token }))).toEqual([`${tag} b`, `${tag} c`, `${tag} a`]);
    expect(names(await api("GET", `${q}&order_by=name&sort=asc`, { token: owner.token }))).toEqual([`${tag} a`, `${tag} b`, `${tag} c`]);
    expect(names(await api("GET", `${q}&order_by=path&sort=desc`, { token: owner.token }))).toEqual([`${tag} c`, `${tag} b`, `${tag} a`]);
    // An update moves a project to the front of updated_at and last_activity_at.
    expect((await api("PUT", `/api/v4/projects/${ids.b}`, { token: owner.token, body: { description: "touched" } })).status).toBe(200);
    for (const order of ["updated_at", "last_activity_at"]) {
      expect(names(await api("GET", `${q}&order_by=${order}`, { token: owner.token }))[0]).toBe(`${tag} b`);
    }
  });

  it("lists every project, private ones included, for internal callers listing as an administrator", async () => {
    // The admin home page and the tracker API's project list (Connect) call it without a principal.
    const all = await listAllProjects(0, 100);
    expect(all.projects.map((p) => p.id)).toEqual(expect.arrayContaining([ids.a, ids.b, ids.c, ids.z]));
  });

  it("serves name order from the shared lists too: what others see, and the administrator's whole list", async () => {
    // Another user sees the public and internal projects, merged with its own, in name order.
    const seen = await api("GET", `/api/v4/projects?search=${tag}&order_by=name&sort=asc`, { token: other.token });
    expect(names(seen)).toEqual([`${tag} a`, `${tag} b`, `${tag} z`]);
    const anonymous = await api("GET", `/api/v4/projects?search=${tag}&order_by=name&sort=asc`);
    expect(names(anonymous)).toEqual([`${tag} b`, `${tag} z`]);
    const admin = await api("GET", `/api/v4/projects?search=${tag}&order_by=name&sort=desc`, { token: adminToken() });
    expect(names(admin)).toEqual([`${tag} z`, `${tag} c`, `${tag} b`, `${tag} a`]);
  });

  it("filters by owned, visibility and search, and answers simple=true with the basic entity", async () => {
    expect(names(await api("GET", `/api/v4/projects?search=${tag}&owned=True&order_by=name&sort=asc`, { token: other.token }))).toEqual([`${tag} z`]);
    expect(names(await api("GET", `/api/v4/projects?search=${tag}&visibility=internal`, { token: other.token }))).toEqual([`${tag} a`]);
    expect(names(await api("GET", `/api/v4/projects?search=${tag.toUpperCase()}%20C`, { token: adminToken() }))).toEqual([`${tag} c`]);
    const simple = await api("GET", `/api/v4/projects?search=${tag}&simple=true&order_by=id&sort=asc`, { token: owner.token });
    expect(simple.body[0]).toMatchObject({ id: ids.b, path_with_namespace: expect.stringContaining(`${tag}-b`), namespace: expect.any(Object) });
    expect(simple.body[0]).not.toHaveProperty("visibility");
    expect(simple.body[0]).not.toHaveProperty("issues_access_level");
  });

  it("refuses unknown orders, directions, visibilities and paginations as Grape does", async () => {
    for (const [param, value] of [["order_by", "stars"], ["sort", "up"], ["visibility", "secret"], ["pagination", "cursor"]]) {
      const res = await api("GET", `/api/v4/projects?${param}=${value}`, { token: owner.token });
      expect(res).toMatchObject({ status: 400, body: { error: `${param} does not have a valid value` } });
    }
    const keysetByName = await api("GET", "/api/v4/projects?pagination=keyset&order_by=name", { token: owner.token });
    expect(keysetByName).toMatchObject({ status: 405, body: { message: "Keyset pagination is not yet available for this type of request" } });
  });

  it("archives and unarchives: Owner only, archived=true/false filters, pushes refused while archived", async () => {
    const developer = await newUser();
    expect((await api("POST", `/api/v4/projects/${ids.b}/members`, { token: owner.token, body: { user_id: developer.id, access_level: 40 } })).status).toBe(201);
    expect(await api("POST", `/api/v4/projects/${ids.b}/archive`, { token: developer.token })).toMatchObject({ status: 403 });

    const archived = await api("POST", `/api/v4/projects/${ids.b}/archive`, { token: owner.token });
    expect(archived).toMatchObject({ status: 201, body: { id: ids.b, archived: true } });
    expect((await api("POST", `/api/v4/projects/${ids.b}/archive`, { token: owner.token })).body.archived).toBe(true);
    const q = `/api/v4/projects?search=${tag}&owned=true&order_by=id&sort=asc`;
    expect(names(await api("GET", `${q}&archived=True`, { token: owner.token }))).toEqual([`${tag} b`]);
    expect(names(await api("GET", `${q}&archived=false`, { token: owner.token }))).toEqual([`${tag} c`, `${tag} a`]);
    // Name order reads the order entries, which carry the flag as well.
    expect(names(await api("GET", `/api/v4/projects?search=${tag}&archived=true&order_by=name`, { token: other.token }))).toEqual([`${tag} b`]);

    const commit = { branch: "main", commit_message: "x", actions: [{ action: "create", file_path: "x.txt", content: "x" }] };
    const refused = await api("POST", `/api/v4/projects/${ids.b}/repository/commits`, { token: owner.token, body: commit });
    expect(refused).toMatchObject({ status: 403, body: { message: "403 Forbidden - You are not allowed to push into this branch" } });

    expect(await api("POST", `/api/v4/projects/${ids.b}/unarchive`, { token: owner.token })).toMatchObject({ status: 201, body: { archived: false } });
    expect((await api("POST", `/api/v4/projects/${ids.b}/repository/commits`, { token: owner.token, body: commit })).status).toBe(201);
    expect(names(await api("GET", `${q}&archived=true`, { token: owner.token }))).toEqual([]);
  });

  it("walks the list by keyset (order_by=id) in both directions: Link rel=next only, no totals", async () => {
    const asc = await walk(`/api/v4/projects?search=${tag}&pagination=keyset&order_by=id&sort=asc&per_page=1`, adminToken());
    expect(asc.ids).toEqual([ids.b, ids.c, ids.a, ids.z]);
    for (const page of asc.pages) {
      expect(page.headers.get("x-total")).toBeNull();
      expect(page.headers.get("x-page")).toBeNull();
    }
    expect(asc.pages[0]!.headers.get("link")).toMatch(new RegExp(`^<[^>]*[?&]id_after=${ids.b}[^>]*>; rel="next"$`));
    expect(asc.pages.at(-1)!.headers.get("link")).toBeNull();
    const desc = await walk(`/api/v4/projects?search=${tag}&pagination=keyset&order_by=id&sort=desc&per_page=3`, other.token);
    expect(desc.ids).toEqual([ids.z, ids.a, ids.b]);
  });
});

describe("totals on a private instance", () => {
  let rt: Awaited<ReturnType<typeof ownRuntime>>;
  let token: string;
  /** The administrator's list before any project exists (no counter yet), by GET and HEAD. */
  let empty: ApiResponse[];

  beforeAll(async () => {
    rt = await ownRuntime();
    token = rt.runtime.bootstrap.token!;
    empty = [await requestAt(rt.runtime.baseUrl, "GET", "/api/v4/projects", { token }), await requestAt(rt.runtime.baseUrl, "HEAD", "/api/v4/projects", { token })];
    for (let i = 0; i < 5; i++) expect((await requestAt(rt.runtime.baseUrl, "POST", "/api/v4/projects", { token, body: { name: `total-${i}` } })).status).toBe(201);
  }, 120_000);
  afterAll(async () => rt?.stop());

  it("answers an instance without projects with X-Total 0 and one page, by GET and HEAD (python-gitlab's projects.head())", async () => {
    expect(empty[0]!.body).toEqual([]);
    for (const res of empty) {
      expect(res.status).toBe(200);
      expect(res.headers.get("x-total")).toBe("0");
      expect(res.headers.get("x-total-pages")).toBe("1");
      expect(res.headers.get("link")).toMatch(/<[^>]*[?&]page=1\b[^>]*>; rel="last"/);
    }
  });

  it("sends X-Total, X-Total-Pages and rel=last on the administrator's list, and keeps the count through deletions", async () => {
    const first = await requestAt(rt.runtime.baseUrl, "GET", "/api/v4/projects?per_page=2", { token });
    expect(first.headers.get("x-total")).toBe("5");
    expect(first.headers.get("x-total-pages")).toBe("3");
    expect(first.headers.get("link")).toMatch(/<[^>]*[?&]page=3\b[^>]*>; rel="last"/);
    const all = await walk("/api/v4/projects?per_page=2", token, rt.runtime.baseUrl);
    expect(all.ids).toHaveLength(5);

    expect((await requestAt(rt.runtime.baseUrl, "DELETE", `/api/v4/projects/${all.ids[0]}`, { token })).status).toBe(202);
    expect((await requestAt(rt.runtime.baseUrl, "GET", "/api/v4/projects", { token })).headers.get("x-total")).toBe("4");
    // A filtered list has no counter: GitLab leaves the totals out where counting would be costly,
    // except on the last page, which tells the total; a page past the end tells nothing.
    const filtered = await requestAt(rt.runtime.baseUrl, "GET", "/api/v4/projects?search=total&per_page=3", { token });
    expect(filtered.body).toHaveLength(3);
    expect(filtered.headers.get("x-total")).toBeNull();
    const last = await requestAt(rt.runtime.baseUrl, "GET", "/api/v4/projects?search=total&per_page=3&page=2", { token });
    expect(last.body).toHaveLength(1);
    expect([last.headers.get("x-total"), last.headers.get("x-total-pages")]).toEqual(["4", "2"]);
    const beyond = await requestAt(rt.runtime.baseUrl, "GET", "/api/v4/projects?search=total&per_page=3&page=3", { token });
    expect(beyond.body).toEqual([]);
    expect(beyond.headers.get("x-total")).toBeNull();
  });

  it("gives @gitbeaker/rest its totals, and lets it walk by keyset", async () => {
    const client = new Gitlab({ host: rt.runtime.baseUrl, token });
    const page = await client.Projects.all({ perPage: 3, maxPages: 1, showExpanded: true, pagination: "offset" });
    expect(page.paginationInfo).toMatchObject({ total: 4, totalPages: 2, current: 1, next: 2, perPage: 3 });
    const walked = await client.Projects.all({ pagination: "keyset", orderBy: "id", sort: "asc", perPage: 3 });
    expect(walked.map((p) => p.id)).toEqual([...walked.map((p) => p.id)].sort((a, b) => a - b));
    expect(walked).toHaveLength(4);
  });

  it("sends X-Total on group lists (the administrator's from a counter kept through deletions, a user's when it is known) and on member lists", async () => {
    const at = (method: string, path: string, opts: { token?: string; body?: unknown } = {}) => requestAt(rt.runtime.baseUrl, method, path, { token, ...opts });
    const groups: number[] = [];
    for (const visibility of ["public", "internal", "private", "private"]) {
      const res = await at("POST", "/api/v4/groups", { body: { name: `totals ${visibility} ${groups.length}`, path: `totals-${groups.length}`, visibility } });
      expect(res.status, res.text).toBe(201);
      groups.push(res.body.id);
    }
    const first = await at("GET", "/api/v4/groups?per_page=3");
    expect([first.headers.get("x-total"), first.headers.get("x-total-pages")]).toEqual(["4", "2"]);
    expect(first.headers.get("link")).toMatch(/<[^>]*[?&]page=2\b[^>]*>; rel="last"/);
    expect((await at("DELETE", `/api/v4/groups/${groups.pop()}`)).status).toBe(202);
    expect((await at("GET", "/api/v4/groups?per_page=3&page=2")).headers.get("x-total")).toBe("3");

    // A user's list: the public and internal groups plus its own; all of them fit in what was read.
    const user = await at("POST", "/api/v4/users", { body: { username: "totals_user", name: "Totals", email: "totals@example.com" } });
    const userToken = (await at("POST", `/api/v4/users/${user.body.id}/personal_access_tokens`, { body: { name: "t", scopes: ["api"] } })).body.token;
    const seen = await at("GET", "/api/v4/groups?per_page=1", { token: userToken });
    expect(seen.headers.get("x-total")).toBe("2");
    expect((await at("POST", `/api/v4/groups/${groups[2]}/members`, { body: { user_id: user.body.id, access_level: 30 } })).status).toBe(201);
    expect((await at("GET", "/api/v4/groups", { token: userToken })).headers.get("x-total")).toBe("3");

    // Members: the owner and the added user; counted on a page with more after it, told by the last page.
    const members = await at("GET", `/api/v4/groups/${groups[2]}/members?per_page=1`);
    expect([members.headers.get("x-total"), members.headers.get("x-total-pages")]).toEqual(["2", "2"]);
    expect((await at("GET", `/api/v4/groups/${groups[2]}/members?per_page=1&page=2`)).headers.get("x-total")).toBe("2");
    const project = await at("POST", "/api/v4/projects", { body: { name: "totals-members" } });
    expect((await at("GET", `/api/v4/projects/${project.body.id}/members`)).headers.get("x-total")).toBe("1");
    expect((await at("DELETE", `/api/v4/projects/${project.body.id}`)).status).toBe(202);

    const client = new Gitlab({ host: rt.runtime.baseUrl, token });
    const page = await client.Groups.all({ perPage: 2, maxPages: 1, showExpanded: true });
    expect(page.paginationInfo).toMatchObject({ total: 3, totalPages: 2, current: 1, next: 2, perPage: 2 });
    const memberPage = await client.GroupMembers.all(groups[2]!, { perPage: 1, maxPages: 1, showExpanded: true });
    expect(memberPage.paginationInfo).toMatchObject({ total: 2, totalPages: 2 });
  });
});
