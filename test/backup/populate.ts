/**
 * A populated instance for the round trip, built fast (the API with some concurrency) but through
 * the real write paths: users with tokens, groups with members, 40 projects with history spread
 * over every storage (a cluster included), snippets, group and project wikis, academic records through their
 * API, and error-tracking data written as raw items (binary, sets and big numbers included, which
 * a lossy backup would mangle). Then `snapshot` records every API answer to compare after restore.
 */
import { batchWrite } from "../../functions/backup/table-io.js";
import { call, inParallel, ok, type Client } from "./support.js";

/** Enough to spread over every storage with every kind of history; the kinds matter, not the count. */
export const PROJECTS = 40;
const ACADEMIC_KEY = "dev-api-key-admin-7f3c9a1e5b2d4c6f";

export interface Population {
  users: Array<{ id: number; token: string }>;
  groups: number[];
  projects: number[];
  /** The projects with a wiki (every 10th). */
  projectWikis: number[];
  snippets: number[];
}

export async function populate(admin: Client): Promise<Population> {
  await ok(admin, "PUT", "/api/v4/application/settings", { repository_storages_weighted: { default: 50, secondary: 25, cluster: 25 } });
  const users = await inParallel([1, 2, 3], 3, async (n) => {
    const user = await ok(admin, "POST", "/api/v4/users", { username: `user${n}`, name: `User ${n}`, email: `user${n}@example.com`, admin: false });
    const token = await ok(admin, "POST", `/api/v4/users/${user.id}/personal_access_tokens`, { name: "t", scopes: ["api"] });
    return { id: user.id as number, token: token.token as string };
  });
  const groups: number[] = [];
  for (const [i, visibility] of (["public", "private", "internal"] as const).entries()) {
    const group = await ok(admin, "POST", "/api/v4/groups", { name: `Group ${i}`, path: `group-${i}`, visibility });
    await ok(admin, "POST", `/api/v4/groups/${group.id}/members`, { user_id: users[i]!.id, access_level: 30 });
    groups.push(group.id);
  }
  groups.push((await ok(admin, "POST", "/api/v4/groups", { name: "Sub", path: "sub", parent_id: groups[0] })).id);

  const projects = await inParallel(Array.from({ length: PROJECTS }, (_, i) => i), 6, async (i) => {
    const namespace = i % 3 === 0 ? {} : { namespace_id: groups[i % groups.length] };
    const visibility = ["private", "internal", "public"][i % 3];
    const p = await ok(admin, "POST", "/api/v4/projects", { name: `Project ${i}`, path: `project-${i}`, visibility, initialize_with_readme: true, ...namespace });
    const actions = [{ action: "create", file_path: `src/file-${i}.txt`, content: `content ${i}\n`.repeat(1 + (i % 7)) }];
    if (i % 10 === 0) actions.push({ action: "create", file_path: "bin/blob.bin", content: Buffer.alloc(300, i).toString("base64"), encoding: "base64" } as never);
    await ok(admin, "POST", `/api/v4/projects/${p.id}/repository/commits`, { branch: "main", commit_message: `Second commit of ${i}`, actions });
    if (i % 4 === 0) {
      await ok(admin, "POST", `/api/v4/projects/${p.id}/repository/commits`, {
        branch: "main",
        commit_message: "Third commit",
        actions: [{ action: "update", file_path: "README.md", content: `# Project ${i}\n\nUpdated.\n` }],
      });
    }
    if (i % 10 === 0) {
      await ok(admin, "POST", `/api/v4/projects/${p.id}/wikis`, { title: "Home", content: `Wiki of project ${i}` });
      await ok(admin, "POST", `/api/v4/projects/${p.id}/wikis`, { title: "docs/Setup Guide", content: "Steps", format: "asciidoc" });
    }
    return p.id as number;
  });
  const projectWikis = projects.filter((_, i) => i % 10 === 0);

  const snippets = await inParallel(Array.from({ length: 8 }, (_, i) => i), 4, async (i) => {
    const author = i % 2 === 0 ? admin : { ...admin, token: users[i % 3]!.token };
    const s = await ok(author, "POST", "/api/v4/snippets", {
      title: `Snippet ${i}`,
      visibility: ["private", "internal", "public"][i % 3],
      files: [{ file_path: `s${i}.py`, content: `print(${i})\n` }, { file_path: "notes.md", content: "notes\n" }],
    });
    if (i % 3 === 0) await ok(author, "PUT", `/api/v4/snippets/${s.id}`, { files: [{ action: "update", file_path: "notes.md", content: "more notes\n" }] }, 200);
    return s.id as number;
  });

  for (const group of groups.slice(0, 3)) {
    await ok(admin, "POST", `/api/v4/groups/${group}/wikis`, { title: "Home", content: `Welcome to ${group}` });
    await ok(admin, "POST", `/api/v4/groups/${group}/wikis`, { title: "docs/Setup Guide", content: "Steps", format: "markdown" });
    await ok(admin, "PUT", `/api/v4/groups/${group}/wikis/Home`, { content: "Welcome, edited" }, 200);
  }

  for (const [i, nombre] of ["Aula Magna", "Laboratorio 2", "Sala 3"].entries()) {
    const res = await call(admin, "POST", `/rest/v2/aulas-uni?api_key=${ACADEMIC_KEY}`, { nombre, estado: i === 1 ? "B" : "A", edificio: { nombre: "Central" } }, null);
    if (res.status !== 201) throw new Error(`academic record: ${res.status} ${res.text}`);
  }
  await writeErrorTrackingItems(projects[0]!);
  return { users, groups, projects, projectWikis, snippets };
}

/** Error-tracking items as that context stores them (see errortracking/domain/keys.ts). */
async function writeErrorTrackingItems(projectId: number): Promise<void> {
  const at = "2026-01-02T03:04:05.000Z";
  await batchWrite([
    {
      put: {
        pk: { S: `ETERR#${projectId}#1` },
        sk: { S: "ERROR" },
        gsi1pk: { S: `ETERRS#${projectId}#unresolved` },
        gsi1sk: { S: `${at}#0000000000000001` },
        title: { S: "TypeError: x is undefined" },
        count: { N: "12345678901234567890" }, // beyond double precision: must survive as written
        tags: { SS: ["a", "b"] },
        fingerprint: { B: Buffer.from([0, 1, 2, 254, 255]) },
        frames: { L: [{ M: { file: { S: "app.js" }, line: { N: "10" }, raw: { B: Buffer.from("\u0000bin") } } }] },
      },
    },
    { put: { pk: { S: `ETERR#${projectId}#1` }, sk: { S: "USER#abc" }, seen: { NS: ["1", "2"] }, ok: { BOOL: true }, nothing: { NULL: true } } },
    { put: { pk: { S: `ETEVENT#${projectId}#e1` }, sk: { S: "EVENT" }, gsi2pk: { S: "ETDAY#2026-01-02" }, gsi2sk: { S: `${at}#x` }, expireAt: { N: "1775000000" } } },
  ]);
}

/** Every read the API offers over the population, by path; base URLs replaced so instances compare. */
export async function snapshot(admin: Client, pop: Population): Promise<Record<string, unknown>> {
  const paths = [
    "/api/v4/users?per_page=100",
    "/api/v4/application/settings",
    "/api/v4/groups?per_page=100",
    "/api/v4/snippets?per_page=100",
    "/api/v4/repository_storages/inventory",
    ...Array.from({ length: Math.ceil(PROJECTS / 20) }, (_, i) => `/api/v4/projects?per_page=20&page=${i + 1}`),
    ...pop.projects.flatMap((id) => [`/api/v4/projects/${id}`, `/api/v4/projects/${id}/repository/tree?recursive=true&per_page=100`, `/api/v4/projects/${id}/repository/commits`, `/api/v4/projects/${id}/members`]),
    ...pop.groups.flatMap((id) => [`/api/v4/groups/${id}`, `/api/v4/groups/${id}/wikis?with_content=1`, `/api/v4/groups/${id}/members`]),
    ...pop.groups.slice(0, 3).map((id) => `/api/v4/groups/${id}/wikis/docs%2FSetup-Guide`),
    ...[...pop.projectWikis, pop.projects[1]!].map((id) => `/api/v4/projects/${id}/wikis?with_content=1`),
    ...pop.snippets.flatMap((id) => [`/api/v4/snippets/${id}`, `/api/v4/snippets/${id}/raw`]),
    `/rest/v2/aulas-uni?api_key=${ACADEMIC_KEY}`,
    `/rest/v2/aulas-uni/2?api_key=${ACADEMIC_KEY}`,
  ];
  const out: Record<string, unknown> = {};
  const host = new URL(admin.baseUrl).host;
  await inParallel(paths, 8, async (path) => {
    const res = await call(admin, "GET", path, undefined, path.startsWith("/rest/") ? null : admin.token);
    out[path] = { status: res.status, body: JSON.parse(JSON.stringify(res.body ?? null).replaceAll(host, "HOST")) };
  });
  // What a restored user sees with its own (restored) token.
  for (const [i, user] of pop.users.entries()) out[`user${i}:/api/v4/projects`] = (await call({ ...admin, token: user.token }, "GET", "/api/v4/projects?per_page=100")).body;
  return JSON.parse(JSON.stringify(out).replaceAll(host, "HOST"));
}
