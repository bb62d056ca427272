/**
 * Names git and the API accept that no HTTP header carries as they are: newlines, tabs and other
 * control characters, emoji, right-to-left marks, quotes, `%`, surrounding spaces. Every route of the
 * route table that takes a name (in its path or a query parameter that accepts one) answers them
 * without a 5xx and with printable-ASCII headers. Files, snippet files and wiki pages with such names
 * are created through the API, then read, HEADed, fetched raw, blamed and archived, and every header
 * that names them (`X-Gitlab-File-Name`, `X-Gitlab-File-Path`, `X-Gitlab-Ref`, `Content-Disposition`)
 * decodes back to the name.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as z from "zod/mini";
import { Gitlab } from "@gitbeaker/rest";
import { routes, type RouteSpec } from "../../functions/routes.js";
import type { Endpoint } from "../../functions/platform/http/endpoint.js";
import { loadModule } from "../../local/server.js";
import { api, baseUrl, newUser, unique, type ApiResponse } from "../support/api.js";
import { basic, USUARIOS } from "../academic/support.js";

/** Each a legal file name, snippet file name and wiki title. */
const NAMES = {
  newline: "line\nbreak.txt",
  "carriage return": "cr\r\nlf.txt",
  tab: "tab\there.txt",
  "other control characters": "ctl\u0001\u0007\u001b\u001f\u007f.txt",
  emoji: "party 🎉👩‍💻.txt",
  "right-to-left marks": "\u200fright\u202eto\u200eleft.txt",
  "quotes and percent signs": 'say "hi" 100% %41.txt',
  "surrounding spaces": " padded .txt",
  "accents and CJK": "résumé-日本.md",
} as const;
const names = Object.entries(NAMES);

/** What every header must be for Node, browsers and API Gateway alike. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
/** `X-Gitlab-*` values are percent-encoded UTF-8 when the name is not plain printable ASCII. */
const decoded = (res: ApiResponse | Response, header: string) => decodeURIComponent(res.headers.get(header) ?? "<missing>");
/** The exact name a `Content-Disposition` gives (`filename*`, RFC 5987). */
function dispositionName(res: ApiResponse | Response): string {
  const value = res.headers.get("content-disposition") ?? "";
  expect(value).toMatch(PRINTABLE_ASCII);
  return decodeURIComponent(/filename\*=UTF-8''([^;\s]+)/.exec(value)?.[1] ?? "<none>");
}
const inPath = (name: string) => encodeURIComponent(name).replace(/\./g, "%2E");
const q = encodeURIComponent;

let owner: Awaited<ReturnType<typeof newUser>>;
beforeAll(async () => {
  owner = await newUser({ admin: true });
});
const call = (method: string, path: string, body?: unknown) => api(method, path, { token: owner.token, body });

async function newProject() {
  const res = await call("POST", "/api/v4/projects", { name: unique("names"), initialize_with_readme: true });
  expect(res.status).toBe(201);
  return { id: res.body.id as number, path: res.body.path as string };
}

describe("every route that takes a name", () => {
  /** The containers the routes are called on; they hold a file, snippet file and wiki page of each name. */
  const ids: Record<string, string> = {};
  const endpoints = new Map<string, Endpoint>();

  beforeAll(async () => {
    for (const r of routes) endpoints.set(`${r.method} ${r.path}`, (await loadModule<{ endpoint: Endpoint }>(r.module)).endpoint);
    const project = await newProject();
    const group = await call("POST", "/api/v4/groups", { name: "names", path: unique("names") });
    const files = names.map(([, name]) => ({ file_path: name, content: name }));
    const snippet = await call("POST", "/api/v4/snippets", { title: "names", files });
    const projectSnippet = await call("POST", `/api/v4/projects/${project.id}/snippets`, { title: "names", files });
    const commit = await call("POST", `/api/v4/projects/${project.id}/repository/commits`, {
      branch: "main",
      commit_message: "every name",
      actions: names.map(([, name]) => ({ action: "create", file_path: name, content: name })),
    });
    expect([group.status, snippet.status, projectSnippet.status, commit.status]).toEqual([201, 201, 201, 201]);
    for (const [, title] of names) {
      expect((await call("POST", `/api/v4/groups/${group.body.id}/wikis`, { title, content: title })).status).toBe(201);
      expect((await call("POST", `/api/v4/projects/${project.id}/wikis`, { title, content: title })).status).toBe(201);
    }
    Object.assign(ids, { projects: String(project.id), groups: String(group.body.id), snippets: String(snippet.body.id), user_id: String(owner.id), snippet_id: String(projectSnippet.body.id) });
  });

  /** The parameters that pick a container: they keep the fixtures' ids unless the container itself is named. */
  const containerParam = (path: string, param: string) =>
    param === "user_id" || param === "snippet_id" || (param === "id" && /^\/api\/v4\/(projects|groups|snippets)\/:id/.test(path));
  const containerId = (path: string, param: string) => (param === "id" ? ids[/^\/api\/v4\/(\w+)/.exec(path)![1]!]! : ids[param]!);
  /** Values that lead to a real object where a parameter does not carry the name. */
  const ORDINARY: Record<string, string> = { file_path: "README.md", slug: "home", ref: "main", sha: "main", branch: "main", archive: "archive.tar" };

  const isRead = (route: RouteSpec) => route.method === "GET" || route.method === "HEAD";
  const pathParams = (route: RouteSpec) => [...route.path.matchAll(/:([a-z_0-9]+)/g)].map((m) => m[1]!);
  const querySchemas = (route: RouteSpec) =>
    (endpoints.get(`${route.method} ${route.path}`)?.spec.query as { shape?: Record<string, z.core.$ZodType> } | undefined)?.shape ?? {};

  /** Where the name goes: one path parameter, one query parameter, or every path parameter (containers too). */
  type Placement = `param ${string}` | `query ${string}` | "everywhere";
  function placements(route: RouteSpec, name: string): Placement[] {
    const params = pathParams(route);
    const inPath = params.filter((p) => !containerParam(route.path, p)).map((p): Placement => `param ${p}`);
    // Query parameters on reads only: a write whose path names nothing would act on the shared containers.
    const inQuery = isRead(route) ? Object.entries(querySchemas(route)).filter(([, schema]) => z.safeParse(schema, name).success).map(([key]): Placement => `query ${key}`) : [];
    return [...inPath, ...inQuery, ...(params.length ? (["everywhere"] as const) : [])];
  }

  /** The request for a placement: every other parameter leads to the fixtures (a file of the name, `main`). */
  function target(route: RouteSpec, name: string, placement: Placement): string {
    const path = route.path.replace(/:([a-z_0-9]+)/g, (_m, param: string) => {
      if (placement === "everywhere" || placement === `param ${param}`) return q(name);
      return containerParam(route.path, param) ? containerId(route.path, param) : (ORDINARY[param] ?? "1");
    });
    const query = new URLSearchParams();
    if (placement.startsWith("query ")) query.set(placement.slice("query ".length), name);
    if ("ref" in querySchemas(route) && route.path.includes(":file_path") && !query.has("ref")) query.set("ref", "main");
    return query.size ? `${path}?${query}` : path;
  }

  /** The academic seed's disabled service: 500 "no está disponible" is its contract, whatever it is called with. */
  const disabledService = (route: RouteSpec) => /\/docentes-uni\/:id_docente\/comisiones$/.test(route.path) && route.method !== "PUT";

  async function sweep(route: RouteSpec) {
    const headers: Record<string, string> = route.path.startsWith("/rest") ? { Authorization: basic(USUARIOS.admin.usuario, USUARIOS.admin.password) } : {};
    const calls = names.flatMap(([label, name]) => placements(route, name).map((placement) => ({ label, placement, target: target(route, name, placement) })));
    const expected = disabledService(route) ? "the disabled service's 500" : "below 500";
    const answers = await Promise.all(
      calls.map(async ({ label, placement, target }) => {
        const res = await api(route.method, target, { token: owner.token, headers, body: ["GET", "HEAD", "DELETE"].includes(route.method) ? undefined : {} });
        const unsafe = [...res.headers].filter(([, value]) => !PRINTABLE_ASCII.test(value)).map(([header]) => header);
        const disabled = res.status === 500 && (route.method === "HEAD" || /no está disponible/.test(res.body?.descripcion));
        const status = res.status < 500 ? "below 500" : disabled ? "the disabled service's 500" : `${res.status} ${res.text.slice(0, 200)}`;
        return { label, placement, status, unsafe };
      }),
    );
    expect(answers).toEqual(calls.map(({ label, placement }) => ({ label, placement, status: expected, unsafe: [] })));
  }

  const reads = routes.filter(isRead);
  // Reads first, all of them on the fixtures as created; then writes, which may delete what they name.
  describe.concurrent.each(reads)("$method $path", (route) => {
    it("never answers a name with a 5xx, and sends only printable-ASCII headers", () => sweep(route));
  });
  describe.concurrent.each(routes.filter((r) => !reads.includes(r)))("$method $path", (route) => {
    it("never answers a name with a 5xx, and sends only printable-ASCII headers", () => sweep(route));
  });
});

describe.each(names)("a file named with %s", (_label, name) => {
  let project: { id: number; path: string };
  let work: string;
  /** In a folder of the same name, so the name is a folder in trees and archives, too. */
  const filePath = `${name}/${name}`;
  const files = () => `/api/v4/projects/${project.id}/repository/files/${inPath(filePath)}`;

  beforeAll(async () => {
    project = await newProject();
    work = mkdtempSync(join(tmpdir(), "header-names-"));
    const created = await call("POST", files(), { branch: "main", content: `content of ${name}`, commit_message: `add ${name}` });
    expect(created).toMatchObject({ status: 201, body: { file_path: filePath, branch: "main" } });
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it("is read and HEADed with X-Gitlab-* headers that decode back to its name", async () => {
    for (const method of ["GET", "HEAD"]) {
      for (const route of [files(), `${files()}/blame`]) {
        const res = await call(method, `${route}?ref=main`);
        expect({ method, route, status: res.status }).toEqual({ method, route, status: 200 });
        for (const header of ["x-gitlab-file-name", "x-gitlab-file-path", "x-gitlab-ref", "x-gitlab-blob-id"]) expect(res.headers.get(header)).toMatch(PRINTABLE_ASCII);
        expect([decoded(res, "x-gitlab-file-name"), decoded(res, "x-gitlab-file-path"), decoded(res, "x-gitlab-ref")]).toEqual([name, filePath, "main"]);
      }
    }
    const shown = await call("GET", `${files()}?ref=main`);
    expect(shown.body).toMatchObject({ file_name: name, file_path: filePath });
    expect(Buffer.from(shown.body.content, "base64").toString()).toBe(`content of ${name}`);
  });

  it("is fetched and HEADed raw, by path and by blob id, named in Content-Disposition", async () => {
    const raw = await call("GET", `${files()}/raw?ref=main`);
    expect([raw.status, raw.text]).toEqual([200, `content of ${name}`]);
    expect(raw.headers.get("content-disposition")).toMatch(/^inline; filename="[\x20-\x7e]*"; filename\*=UTF-8''/);
    expect(dispositionName(raw)).toBe(name);
    const rawHead = await call("HEAD", `${files()}/raw?ref=main`);
    expect([rawHead.status, dispositionName(rawHead)]).toEqual([200, name]);
    const blobId = (await call("HEAD", `${files()}?ref=main`)).headers.get("x-gitlab-blob-id");
    const blob = await call("GET", `/api/v4/projects/${project.id}/repository/blobs/${blobId}/raw`);
    expect([blob.status, blob.text, blob.headers.get("content-disposition")]).toEqual([200, `content of ${name}`, "inline"]);
    expect((await call("GET", `/api/v4/projects/${project.id}/repository/blobs/${blobId}`)).status).toBe(200);
  });

  it("is listed in trees, commits and diffs", async () => {
    const tree = await call("GET", `/api/v4/projects/${project.id}/repository/tree?path=${q(name)}`);
    expect(tree.status).toBe(200);
    expect(tree.body).toEqual([expect.objectContaining({ name, path: filePath, type: "blob" })]);
    const commits = await call("GET", `/api/v4/projects/${project.id}/repository/commits?ref_name=main`);
    expect(commits.status).toBe(200);
    expect(commits.body.map((c: { message: string }) => c.message)).toEqual([`add ${name}`, "Initial commit"]);
    const diff = await call("GET", `/api/v4/projects/${project.id}/repository/commits/main/diff`);
    expect(diff.body).toEqual([expect.objectContaining({ new_path: filePath, new_file: true })]);
  });

  it("is archived by its path, the archive named in Content-Disposition and holding the file", async () => {
    const res = await fetch(`${baseUrl()}/api/v4/projects/${project.id}/repository/archive.tar?path=${q(name)}`, { headers: { "Private-Token": owner.token } });
    expect(res.status).toBe(200);
    const sha = (await call("HEAD", `${files()}?ref=main`)).headers.get("x-gitlab-commit-id");
    // GitLab's archive name: `<project>-<ref>-<sha>-<path, / as ->`, the folder inside named the same.
    const prefix = `${project.path}-main-${sha}-${name}`;
    expect(dispositionName(res)).toBe(`${prefix}.tar`);
    const tar = join(work, "archive.tar");
    writeFileSync(tar, Buffer.from(await res.arrayBuffer()));
    const out = join(work, "unpacked");
    mkdirSync(out);
    execFileSync("tar", ["-xf", tar, "-C", out]);
    const unpacked = join(out, prefix, name, name);
    expect(existsSync(unpacked)).toBe(true);
    expect(readFileSync(unpacked, "utf8")).toBe(`content of ${name}`);
  });

  it("is read, raw and with its headers, by @gitbeaker/rest", async () => {
    const gl = new Gitlab({ host: baseUrl(), token: owner.token });
    const shown = await gl.RepositoryFiles.show(project.id, filePath, "main", { showExpanded: true });
    expect(shown.data).toMatchObject({ file_name: name, file_path: filePath });
    expect(decodeURIComponent(shown.headers["x-gitlab-file-path"]!)).toBe(filePath);
    expect(await gl.RepositoryFiles.showRaw(project.id, filePath, "main")).toBe(`content of ${name}`);
    const tree = await gl.Repositories.allRepositoryTrees(project.id, { path: name });
    expect(tree.map((t) => t.path)).toEqual([filePath]);
  });

  it("is renamed, updated and deleted through the commits and files APIs", async () => {
    const moved = `${name}/moved ${name}`;
    const commit = await call("POST", `/api/v4/projects/${project.id}/repository/commits`, {
      branch: "main",
      commit_message: "move",
      actions: [{ action: "move", previous_path: filePath, file_path: moved }],
    });
    expect(commit.status).toBe(201);
    const movedRoute = `/api/v4/projects/${project.id}/repository/files/${inPath(moved)}`;
    expect(decoded(await call("HEAD", `${movedRoute}?ref=main`), "x-gitlab-file-path")).toBe(moved);
    expect((await call("PUT", movedRoute, { branch: "main", content: "changed", commit_message: "change" })).status).toBe(200);
    expect((await call("GET", `${movedRoute}/raw?ref=main`)).text).toBe("changed");
    expect((await call("DELETE", movedRoute, { branch: "main", commit_message: "remove" })).status).toBe(204);
    expect((await call("HEAD", `${movedRoute}?ref=main`)).status).toBe(404);
  });
});

describe.each(names)("a snippet file named with %s", (_label, name) => {
  it("is created, listed and fetched raw, named in Content-Disposition, for personal and project snippets", async () => {
    const project = await newProject();
    for (const base of ["/api/v4/snippets", `/api/v4/projects/${project.id}/snippets`]) {
      const created = await call("POST", base, { title: "odd names", files: [{ file_path: name, content: `snippet ${name}` }] });
      expect(created.status).toBe(201);
      expect(created.body.files).toEqual([expect.objectContaining({ path: name })]);
      for (const route of [`${base}/${created.body.id}/raw`, `${base}/${created.body.id}/files/main/${inPath(name)}/raw`]) {
        const raw = await call("GET", route);
        expect({ route, status: raw.status, text: raw.text }).toEqual({ route, status: 200, text: `snippet ${name}` });
        expect(dispositionName(raw)).toBe(name);
      }
      const renamed = await call("PUT", `${base}/${created.body.id}`, { files: [{ action: "move", previous_path: name, file_path: `${name} again` }] });
      expect(renamed.status).toBe(200);
      expect(dispositionName(await call("GET", `${base}/${created.body.id}/files/main/${inPath(`${name} again`)}/raw`))).toBe(`${name} again`);
    }
  });
});

describe.each(names)("a wiki page titled with %s", (_label, title) => {
  it("is created, read by its slug, updated, listed and deleted, in group and project wikis", async () => {
    const project = await newProject();
    const group = await call("POST", "/api/v4/groups", { name: "wiki names", path: unique("wiki-names") });
    for (const base of [`/api/v4/groups/${group.body.id}/wikis`, `/api/v4/projects/${project.id}/wikis`]) {
      const created = await call("POST", base, { title, content: `page ${title}` });
      expect(created.status).toBe(201);
      // GitLab's title is the page's file name read back: trimmed, a hyphen shown as a space.
      const shown = created.body.title as string;
      expect(shown).toBe(title.trim().replaceAll("-", " "));
      const page = `${base}/${q(created.body.slug)}`;
      expect(await call("GET", page)).toMatchObject({ status: 200, body: { title: shown, content: `page ${title}` } });
      expect(await call("PUT", page, { content: "changed" })).toMatchObject({ status: 200, body: { title: shown, content: "changed" } });
      expect((await call("GET", `${base}?with_content=1`)).body).toEqual([expect.objectContaining({ title: shown, content: "changed" })]);
      expect((await call("DELETE", page)).status).toBe(204);
    }
  });
});

describe("Git over HTTP and the collector (function URLs beside the API routes)", () => {
  it("answer a name in a repository or project path without a 5xx, with printable-ASCII headers", async () => {
    const basicAuth = { Authorization: `Basic ${Buffer.from(`${owner.username}:${owner.token}`).toString("base64")}` };
    const requests = names.flatMap(([label, name]) => [
      { label, method: "GET", path: `/${owner.username}/${q(name)}.git/info/refs?service=git-upload-pack` },
      // Without `.git`: the clone-URL redirect, whose Location is built from the path.
      { label, method: "GET", path: `/${owner.username}/${q(name)}/info/refs?service=git-upload-pack` },
      { label, method: "POST", path: `/${owner.username}/${q(name)}.git/git-upload-pack` },
      { label, method: "POST", path: `/${q(name)}/${q(name)}.git/git-receive-pack` },
      { label, method: "POST", path: `/api/v4/error_tracking/collector/api/${q(name)}/envelope/` },
    ]);
    const answers = await Promise.all(
      requests.map(async ({ label, method, path }) => {
        const res = await fetch(`${baseUrl()}${path}`, { method, headers: basicAuth, body: method === "POST" ? "0000" : undefined, redirect: "manual" });
        await res.arrayBuffer();
        const unsafe = [...res.headers].filter(([, value]) => !PRINTABLE_ASCII.test(value)).map(([header]) => header);
        return { label, path, status: res.status < 500 ? "below 500" : String(res.status), unsafe };
      }),
    );
    expect(answers).toEqual(requests.map(({ label, path }) => ({ label, path, status: "below 500", unsafe: [] })));
  });
});

describe("refs with names beyond ASCII", () => {
  it("name the archive and X-Gitlab-Ref in a form that decodes back to them", async () => {
    const project = await newProject();
    const branch = "fête/🎉\u200f";
    expect((await call("POST", `/api/v4/projects/${project.id}/repository/branches`, { branch, ref: "main" })).status).toBe(201);
    const tag = "v1-日本";
    expect((await call("POST", `/api/v4/projects/${project.id}/repository/tags`, { tag_name: tag, ref: "main" })).status).toBe(201);
    for (const ref of [branch, tag]) {
      const head = await call("HEAD", `/api/v4/projects/${project.id}/repository/files/README%2Emd?ref=${q(ref)}`);
      expect(head.status).toBe(200);
      expect(decoded(head, "x-gitlab-ref")).toBe(ref);
      const archive = await call("GET", `/api/v4/projects/${project.id}/repository/archive.zip?sha=${q(ref)}`);
      expect(archive.status).toBe(200);
      expect(dispositionName(archive)).toBe(`${project.path}-${ref.replaceAll("/", "-")}-${head.headers.get("x-gitlab-commit-id")}.zip`);
    }
  });
});
