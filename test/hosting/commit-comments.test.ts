/**
 * Comments on commits (`/projects/:id/repository/commits/:sha/comments`) and the same notes as
 * discussions (`…/discussions`): GitLab's entities, positions on the commit's diff, permissions.
 */
import { describe, it, expect, beforeAll } from "vitest";
import { api, newUser, unique } from "../support/api.js";
import { queryAll } from "../../functions/platform/db/table.js";

let owner: Awaited<ReturnType<typeof newUser>>;
beforeAll(async () => {
  owner = await newUser();
});

async function newProject(visibility = "private") {
  const res = await api("POST", "/api/v4/projects", { token: owner.token, body: { name: unique("notes"), initialize_with_readme: true, visibility } });
  expect(res.status).toBe(201);
  const change = await api("POST", `/api/v4/projects/${res.body.id}/repository/commits`, {
    token: owner.token,
    body: { branch: "main", commit_message: "change", actions: [{ action: "update", file_path: "README.md", content: "one\ntwo\nthree\n" }] },
  });
  expect(change.status).toBe(201);
  return { id: res.body.id as number, sha: change.body.id as string };
}

const comments = (id: number, sha: string) => `/api/v4/projects/${id}/repository/commits/${sha}/comments`;

describe("commit comments", () => {
  it("keeps a comment on a changed line with its position, else on the commit; lists them oldest first, also as discussions", async () => {
    const { id, sha } = await newProject();
    const placed = await api("POST", comments(id, sha), { token: owner.token, body: { note: "Nice line!", path: "README.md", line: 2, line_type: "new" } });
    expect(placed.status, placed.text).toBe(201);
    expect(placed.body).toEqual({
      note: "Nice line!",
      path: "README.md",
      line: 2,
      line_type: "new",
      author: { id: owner.id, username: owner.username, name: `User ${owner.username}`, state: "active", locked: false, avatar_url: null, web_url: expect.stringMatching(new RegExp(`/${owner.username}$`)) },
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    // The README's old first line was removed: `old` line 1 is on the diff.
    expect((await api("POST", comments(id, sha), { token: owner.token, body: { note: "gone", path: "README.md", line: 1, line_type: "old" } })).body).toMatchObject({ path: "README.md", line: 1, line_type: "old" });
    // A line past the diff on either side, a file the commit does not change: kept on the commit.
    for (const position of [{ path: "README.md", line: 40 }, { path: "other.txt", line: 1 }, { path: "README.md", line: 99, line_type: "old" }]) {
      expect((await api("POST", comments(id, sha), { token: owner.token, body: { note: "general", ...position } })).body).toMatchObject({ path: null, line: null, line_type: null });
    }
    // Form-encoded, as curl sends it; `sha` may be a branch.
    const form = await api("POST", comments(id, "main"), { token: owner.token, raw: "note=On+main", headers: { "Content-Type": "application/x-www-form-urlencoded" } });
    expect(form).toMatchObject({ status: 201, body: { note: "On main", path: null } });

    const list = await api("GET", comments(id, sha), { token: owner.token });
    expect(list.status).toBe(200);
    expect(list.body.map((n: { note: string }) => n.note)).toEqual(["Nice line!", "gone", "general", "general", "general", "On main"]);
    expect(list.headers.get("x-total")).toBe("6");
    const page = await api("GET", `${comments(id, "main")}?per_page=2&page=3`, { token: owner.token });
    expect(page.body.map((n: { note: string }) => n.note)).toEqual(["general", "On main"]);

    const discussions = await api("GET", `/api/v4/projects/${id}/repository/commits/${sha}/discussions`, { token: owner.token });
    expect(discussions.status).toBe(200);
    expect(discussions.body).toHaveLength(6);
    expect(discussions.body[0]).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{40}$/),
      individual_note: true,
      notes: [
        expect.objectContaining({
          id: expect.any(Number),
          type: "LegacyDiffNote",
          body: "Nice line!",
          attachment: null,
          author: placed.body.author,
          system: false,
          noteable_id: null,
          noteable_type: "Commit",
          resolvable: false,
          confidential: null,
          noteable_iid: null,
          commands_changes: {},
        }),
      ],
    });
    expect(discussions.body[5].notes[0]).toMatchObject({ type: null, body: "On main" });
    expect(new Set(discussions.body.map((d: { id: string }) => d.id)).size).toBe(6);
    // Another commit has none.
    const first = (await api("GET", `/api/v4/projects/${id}/repository/commits?per_page=1&page=2`, { token: owner.token })).body[0].id;
    expect((await api("GET", comments(id, first), { token: owner.token })).body).toEqual([]);
  });

  it("answers GitLab's errors: unknown commit, blank note, line missing with path, bad line_type; refuses strangers, Guests and archived projects", async () => {
    const { id, sha } = await newProject();
    expect(await api("GET", comments(id, "nope"), { token: owner.token })).toMatchObject({ status: 404, body: { message: "404 Commit Not Found" } });
    expect(await api("POST", comments(id, "nope"), { token: owner.token, body: { note: "x" } })).toMatchObject({ status: 404, body: { message: "404 Commit Not Found" } });
    expect(await api("POST", comments(id, sha), { token: owner.token, body: { note: "  " } })).toMatchObject({ status: 400, body: { message: `Failed to save note {:note=>["can't be blank"]}` } });
    expect(await api("POST", comments(id, sha), { token: owner.token, body: {} })).toMatchObject({ status: 400, body: { error: expect.stringContaining("note") } });
    expect(await api("POST", comments(id, sha), { token: owner.token, body: { note: "x", path: "README.md" } })).toMatchObject({ status: 400, body: { error: "line is missing" } });
    expect((await api("POST", comments(id, sha), { token: owner.token, body: { note: "x", path: "README.md", line: 1, line_type: "side" } })).status).toBe(400);
    expect((await api("POST", comments(id, sha), { token: owner.token, body: { note: "x", line: "two" } })).status).toBe(400);

    const stranger = await newUser();
    expect((await api("GET", comments(id, sha), { token: stranger.token })).status).toBe(404);
    expect((await api("POST", comments(id, sha), { token: stranger.token, body: { note: "x" } })).status).toBe(404);
    const guest = await newUser();
    await api("POST", `/api/v4/projects/${id}/members`, { token: owner.token, body: { user_id: guest.id, access_level: 10 } });
    expect(await api("POST", comments(id, sha), { token: guest.token, body: { note: "x" } })).toMatchObject({ status: 403 });
    const reporter = await newUser();
    await api("POST", `/api/v4/projects/${id}/members`, { token: owner.token, body: { user_id: reporter.id, access_level: 20 } });
    expect((await api("POST", comments(id, sha), { token: reporter.token, body: { note: "from a reporter" } })).status).toBe(201);
    expect((await api("POST", comments(id, sha), { body: { note: "x" } })).status).toBe(401);
    expect((await api("POST", comments(id, sha), { token: (await newUser({ scopes: ["read_api"] })).token, body: { note: "x" } })).status).toBe(403);
    expect((await api("POST", `/api/v4/projects/${id}/archive`, { token: owner.token })).status).toBe(201);
    expect((await api("POST", comments(id, sha), { token: owner.token, body: { note: "x" } })).status).toBe(403);
    expect((await api("GET", comments(id, sha), { token: owner.token })).body.map((n: { note: string }) => n.note)).toEqual(["from a reporter"]);
  });

  it("lets any user comment on a public project's commit and anyone read it; the notes go with the project", async () => {
    const { id, sha } = await newProject("public");
    const passer = await newUser();
    expect((await api("POST", comments(id, sha), { token: passer.token, body: { note: "drive-by" } })).status).toBe(201);
    expect((await api("GET", comments(id, sha))).body).toMatchObject([{ note: "drive-by", author: { username: passer.username } }]);
    expect((await api("GET", `/api/v4/projects/${id}/repository/commits/${sha}/discussions`)).status).toBe(200);
    expect((await api("DELETE", `/api/v4/projects/${id}`, { token: owner.token })).status).toBe(202);
    expect(await queryAll({ pk: `PROJECT#${id}`, skPrefix: "COMMIT_NOTE#" })).toEqual([]);
  });
});
