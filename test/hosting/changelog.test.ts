/**
 * GitLab's changelog routes (`GET` and `POST /projects/:id/repository/changelog`): release sections
 * from commits carrying a `Changelog:` trailer, the tag range, the configuration file, the commit
 * into CHANGELOG.md through the write path.
 */
import { describe, it, expect, beforeAll } from "vitest";
import { api, newUser, unique } from "../support/api.js";
import { git, repoPaths } from "../support/git.js";
import { updateItem } from "../../functions/platform/db/table.js";

let owner: Awaited<ReturnType<typeof newUser>>;
beforeAll(async () => {
  owner = await newUser();
});

async function newProject() {
  const res = await api("POST", "/api/v4/projects", { token: owner.token, body: { name: unique("changelog"), initialize_with_readme: true } });
  expect(res.status).toBe(201);
  return { id: res.body.id as number, path: res.body.path_with_namespace as string, dir: repoPaths("default", "project", res.body.id)[0]! };
}

async function commit(id: number, message: string, files: Record<string, string> = { [unique("f")]: "x" }) {
  const actions = Object.entries(files).map(([file_path, content]) => ({ action: "create", file_path, content }));
  const res = await api("POST", `/api/v4/projects/${id}/repository/commits`, { token: owner.token, body: { branch: "main", commit_message: message, actions } });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

const tag = (id: number, name: string, ref = "main") => api("POST", `/api/v4/projects/${id}/repository/tags`, { token: owner.token, body: { tag_name: name, ref } });
const changelog = (id: number) => `/api/v4/projects/${id}/repository/changelog`;

describe("GET /projects/:id/repository/changelog", () => {
  it("lists the trailer's commits since the last stable tag by category, newest first, in GitLab's format", async () => {
    const { id, path } = await newProject();
    await commit(id, "Before the release\n\nChangelog: added");
    await tag(id, "v0.9.0");
    await tag(id, "v1.0.0-rc1");
    const a = await commit(id, "Add the parser\n\nChangelog: added");
    await commit(id, "Refactor, no entry");
    const b = await commit(id, "Fix a crash\n\nSigned-off-by: A <a@example.com>\nChangelog: fixed");
    const c = await commit(id, "Add the printer\n\nChangelog: added");
    const res = await api("GET", `${changelog(id)}?version=1.0.0&date=2021-11-17T10:00:00Z`, { token: owner.token });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      notes: `## 1.0.0 (2021-11-17)\n\n### added (2 changes)\n\n- [Add the printer](${path}@${c})\n- [Add the parser](${path}@${a})\n\n### fixed (1 change)\n\n- [Fix a crash](${path}@${b})\n\n`,
    });
    // `from`/`to`, another trailer, `v` before the version, a range without entries.
    const range = await api("GET", `${changelog(id)}?version=v1.0.0&from=${a}&to=${b}&date=2021-11-17T10:00:00Z`, { token: owner.token });
    expect(range.body.notes).toBe(`## 1.0.0 (2021-11-17)\n\n### fixed (1 change)\n\n- [Fix a crash](${path}@${b})\n\n`);
    expect((await api("GET", `${changelog(id)}?version=1.0.0&trailer=Signed-off-by&date=2021-11-17T10:00:00Z`, { token: owner.token })).body.notes).toContain("### A <a@example.com> (1 change)");
    expect((await api("GET", `${changelog(id)}?version=1.0.0&from=${c}&date=2021-11-17T10:00:00Z`, { token: owner.token })).body.notes).toBe("## 1.0.0 (2021-11-17)\n\nNo changes.\n\n");
  });

  it("follows the configuration file: category titles and their order, date format, template, tag_regex; a reverted commit leaves", async () => {
    const { id } = await newProject();
    await commit(id, "config", {
      ".gitlab/changelog_config.yml": [
        "date_format: '%B %-d %Y'",
        "categories:",
        "  fixed: Bug fixes",
        "  added: New features",
        "tag_regex: '^release-(?P<major>\\d+)\\.(?P<minor>\\d+)\\.(?P<patch>\\d+)$'",
        "template: |",
        "  {% each categories %}",
        "  * {{ title }}: {{ count }}",
        "  {% each entries %}",
        "    - {{ title }} ({{ commit.trailers.Changelog }})",
        "  {% end %}",
        "  {% end %}",
      ].join("\n"),
    });
    await tag(id, "release-1.0.0");
    await tag(id, "v1.5.0");
    await commit(id, "Feature\n\nChangelog: added");
    await commit(id, "Fix\n\nChangelog: fixed");
    const oops = await commit(id, "Broken feature\n\nChangelog: added");
    await api("POST", `/api/v4/projects/${id}/repository/commits/${oops}/revert`, { token: owner.token, body: { branch: "main" } });
    const res = await api("GET", `${changelog(id)}?version=2.0.0&date=2021-03-05T00:00:00Z`, { token: owner.token });
    expect(res.status, res.text).toBe(200);
    // `%-d` is not a directive here: it stays as written.
    expect(res.body.notes).toBe(`## 2.0.0 (March %-d 2021)\n\n* Bug fixes: 1\n  - Fix (fixed)\n* New features: 1\n  - Feature (added)\n\n`);
    expect(res.body.notes).not.toContain("Broken");
  });

  it("answers GitLab's 422s and 400s, and reads like the code", async () => {
    const { id } = await newProject();
    expect(await api("GET", `${changelog(id)}?version=1.0.0`, { token: owner.token })).toMatchObject({
      status: 422,
      body: { message: "Failed to generate the changelog: The commit start range is unspecified, and no previous tag could be found to use instead" },
    });
    expect(await api("GET", `${changelog(id)}?version=1.0.0&from=nope`, { token: owner.token })).toMatchObject({ status: 422, body: { message: expect.stringContaining("nope") } });
    expect((await api("GET", `${changelog(id)}?version=one`, { token: owner.token })).status).toBe(400);
    expect(await api("GET", changelog(id), { token: owner.token })).toMatchObject({ status: 400, body: { error: "version is missing" } });
    expect((await api("GET", changelog(id))).status).toBe(404);
    expect((await api("GET", `${changelog(id)}?version=1.0.0&date=yesterday`, { token: owner.token })).status).toBe(400);
    await commit(id, "bad config", { ".gitlab/changelog_config.yml": "categories: [a, b]\n" });
    expect(await api("GET", `${changelog(id)}?version=1.0.0&from=main`, { token: owner.token })).toMatchObject({ status: 422, body: { message: 'Failed to generate the changelog: The "categories" configuration key must be a Hash' } });
    const other = await newProject();
    await commit(other.id, "anchors", { ".gitlab/changelog_config.yml": "categories:\n  added: &a Added\n" });
    expect(await api("GET", `${changelog(other.id)}?version=1.0.0&from=main`, { token: owner.token })).toMatchObject({
      status: 422,
      body: { message: "Failed to generate the changelog: The changelog configuration could not be read: line 2 uses YAML this service does not read" },
    });
    expect((await api("GET", `${changelog(id)}?version=1.0.0&from=main`, { token: (await newUser()).token })).status).toBe(404);
  });
});

describe("POST /projects/:id/repository/changelog", () => {
  it("commits the section into CHANGELOG.md in version order, once per version", async () => {
    const { id, path, dir } = await newProject();
    await tag(id, "v1.0.0");
    const first = await commit(id, "First\n\nChangelog: added");
    const post = (body: Record<string, unknown>) => api("POST", changelog(id), { token: owner.token, body: { date: "2021-11-17T00:00:00Z", ...body } });
    expect(await post({ version: "1.1.0" })).toMatchObject({ status: 200, body: 200 });
    expect(git(dir, "log", "-1", "--format=%s", "main").trim()).toBe("Add changelog for version 1.1.0");
    const one = `## 1.1.0 (2021-11-17)\n\n### added (1 change)\n\n- [First](${path}@${first})\n`;
    expect(git(dir, "show", "main:CHANGELOG.md")).toBe(one);
    // Again: the file has the version's section already.
    const head = git(dir, "rev-parse", "main").trim();
    expect((await post({ version: "1.1.0" })).status).toBe(200);
    expect(git(dir, "rev-parse", "main").trim()).toBe(head);
    // A newer version goes first, an older one after it; a custom file and message.
    expect((await post({ version: "1.2.0", from: "v1.0.0", message: "Release 1.2.0" })).status).toBe(200);
    expect(git(dir, "log", "-1", "--format=%s", "main").trim()).toBe("Release 1.2.0");
    expect((await post({ version: "1.0.1", from: "v1.0.0" })).status).toBe(200);
    const sections = git(dir, "show", "main:CHANGELOG.md").split("\n").filter((l) => l.startsWith("## "));
    expect(sections).toEqual(["## 1.2.0 (2021-11-17)", "## 1.1.0 (2021-11-17)", "## 1.0.1 (2021-11-17)"]);
    expect((await post({ version: "2.0.0", from: "v1.0.0", file: "NEWS" })).status).toBe(200);
    expect(git(dir, "show", "main:NEWS")).toMatch(/^## 2\.0\.0 \(2021-11-17\)\n/);
  });

  it("goes through the write path and needs push access", async () => {
    const { id, dir } = await newProject();
    await tag(id, "v1.0.0");
    await updateItem({ pk: `PROJECT#${id}`, sk: "PROJECT", update: "SET readOnly = :t", values: { ":t": true } });
    const refused = await api("POST", changelog(id), { token: owner.token, body: { version: "1.1.0" } });
    expect(refused).toMatchObject({ status: 409, body: { message: "The repository is temporarily read-only. Please try again later." } });
    await updateItem({ pk: `PROJECT#${id}`, sk: "PROJECT", update: "SET readOnly = :f", values: { ":f": false } });
    const reporter = await newUser();
    await api("POST", `/api/v4/projects/${id}/members`, { token: owner.token, body: { user_id: reporter.id, access_level: 20 } });
    expect(await api("POST", changelog(id), { token: reporter.token, body: { version: "1.1.0" } })).toMatchObject({ status: 403, body: { message: "403 Forbidden - You are not allowed to commit a changelog on this branch" } });
    expect((await api("POST", changelog(id), { body: { version: "1.1.0" } })).status).toBe(401);
    expect((await api("POST", changelog(id), { token: owner.token, body: { version: "x" } })).status).toBe(400);
    expect(git(dir, "ls-tree", "--name-only", "main").trim()).toBe("README.md");
    expect(await api("POST", changelog(id), { token: owner.token, body: { version: "1.1.0", from: "nope" } })).toMatchObject({ status: 422 });
  });
});
