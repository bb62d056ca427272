/**
 * The routes below `/projects/:id/repository/commits/:sha` (diff, refs, merge requests, revert,
 * cherry-pick) and `/repository/merge_base`, checked against the repository with the git CLI. The
 * revert and the cherry-pick write through the one write path.
 */
import { describe, it, expect, beforeAll } from "vitest";
import { api, newUser, unique } from "../support/api.js";
import { commitSubjects, fsck, git, repoPaths } from "../support/git.js";
import { updateItem } from "../../functions/platform/db/table.js";

let owner: Awaited<ReturnType<typeof newUser>>;
beforeAll(async () => {
  owner = await newUser();
});

async function newProject(visibility = "private") {
  const res = await api("POST", "/api/v4/projects", { token: owner.token, body: { name: unique("commits"), initialize_with_readme: true, visibility } });
  expect(res.status).toBe(201);
  return { id: res.body.id as number, dir: repoPaths("default", "project", res.body.id)[0]! };
}

async function commit(id: number, message: string, actions: unknown[], branch = "main", start_branch?: string) {
  const res = await api("POST", `/api/v4/projects/${id}/repository/commits`, { token: owner.token, body: { branch, start_branch, commit_message: message, actions } });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; message: string };
}

const commits = (id: number) => `/api/v4/projects/${id}/repository/commits`;

describe("GET /projects/:id/repository/commits/:sha/diff", () => {
  it("shows each changed file as GitLab does: hunks from @@ on, modes, new/renamed/deleted, binary files", async () => {
    const { id, dir } = await newProject();
    await commit(id, "base", [
      { action: "create", file_path: "lib/a.txt", content: "1\n2\n3\n4\n5\n6\n7\n8\n9\n" },
      { action: "create", file_path: "old-name.txt", content: "same\n" },
      { action: "create", file_path: "gone.txt", content: "bye\n" },
    ]);
    const change = await commit(id, "change", [
      { action: "update", file_path: "lib/a.txt", content: "1\n2\n3\n4\nfive\n6\n7\n8\n9\n" },
      { action: "move", previous_path: "old-name.txt", file_path: "new-name.txt" },
      { action: "delete", file_path: "gone.txt" },
      { action: "create", file_path: "blah", content: "blah" },
      { action: "create", file_path: "logo.bin", content: Buffer.from([0, 1, 2]).toString("base64"), encoding: "base64" },
      { action: "create", file_path: "run.sh", content: "#!/bin/sh\n", execute_filemode: true },
    ]);
    const res = await api("GET", `${commits(id)}/${change.id}/diff`, { token: owner.token });
    expect(res.status).toBe(200);
    const entry = (diff: string, old_path: string, new_path: string, a_mode: string, b_mode: string, flags: Partial<Record<"new_file" | "renamed_file" | "deleted_file", boolean>> = {}) => ({
      diff, new_path, old_path, a_mode, b_mode, new_file: false, renamed_file: false, deleted_file: false, generated_file: false, ...flags,
    });
    expect(res.body).toEqual([
      entry("@@ -0,0 +1 @@\n+blah\n\\ No newline at end of file\n", "blah", "blah", "0", "100644", { new_file: true }),
      entry("@@ -1 +0,0 @@\n-bye\n", "gone.txt", "gone.txt", "100644", "0", { deleted_file: true }),
      entry("@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n", "lib/a.txt", "lib/a.txt", "100644", "100644"),
      entry("Binary files /dev/null and b/logo.bin differ\n", "logo.bin", "logo.bin", "0", "100644", { new_file: true }),
      entry("", "old-name.txt", "new-name.txt", "100644", "100644", { renamed_file: true }),
      entry("@@ -0,0 +1 @@\n+#!/bin/sh\n", "run.sh", "run.sh", "0", "100755", { new_file: true }),
    ]);
    // The hunks are git's own (git prints them after its header lines).
    const gitHunk = git(dir, "diff", `${change.id}~1`, change.id, "--", "lib/a.txt");
    expect(gitHunk.slice(gitHunk.indexOf("@@"))).toBe(res.body[2].diff);
    expect(res.headers.get("x-total")).toBe("6");

    // Pages; a branch name works as :sha; a root commit diffs against the empty tree.
    const page = await api("GET", `${commits(id)}/main/diff?per_page=2&page=2`, { token: owner.token });
    expect(page.body.map((e: { new_path: string }) => e.new_path)).toEqual(["lib/a.txt", "logo.bin"]);
    expect(page.headers.get("x-next-page")).toBe("3");
    const root = git(dir, "rev-list", "--max-parents=0", "main").trim();
    expect((await api("GET", `${commits(id)}/${root}/diff`, { token: owner.token })).body).toMatchObject([{ new_path: "README.md", new_file: true, a_mode: "0" }]);
  });

  it("answers 404 for an unknown commit or a caller who cannot read the code, 401 without a token on a private project, 400 for bad paging", async () => {
    const { id } = await newProject();
    expect(await api("GET", `${commits(id)}/0000000000000000000000000000000000000000/diff`, { token: owner.token })).toMatchObject({ status: 404, body: { message: "404 Commit Not Found" } });
    const stranger = await newUser();
    expect(await api("GET", `${commits(id)}/main/diff`, { token: stranger.token })).toMatchObject({ status: 404, body: { message: "404 Project Not Found" } });
    expect((await api("GET", `${commits(id)}/main/diff`)).status).toBe(404);
    expect((await api("GET", `${commits(id)}/main/diff?per_page=x`, { token: owner.token })).status).toBe(400);
  });
});

describe("GET /projects/:id/repository/commits/:sha/refs", () => {
  it("lists the branches, then the tags, whose history contains the commit, filtered by type", async () => {
    const { id, dir } = await newProject();
    const first = await commit(id, "first", [{ action: "create", file_path: "a", content: "a" }]);
    await commit(id, "on feature", [{ action: "create", file_path: "b", content: "b" }], "feature", "main");
    await commit(id, "later on main", [{ action: "create", file_path: "c", content: "c" }]);
    git(dir, "tag", "v1", first.id);
    git(dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "tag", "-a", "-m", "annotated", "v2", "main");
    const refs = async (sha: string, type?: string) => (await api("GET", `${commits(id)}/${sha}/refs${type ? `?type=${type}` : ""}`, { token: owner.token })).body;
    expect(await refs(first.id)).toEqual([
      { type: "branch", name: "feature" },
      { type: "branch", name: "main" },
      { type: "tag", name: "v1" },
      { type: "tag", name: "v2" },
    ]);
    expect(await refs("main", "branch")).toEqual([{ type: "branch", name: "main" }]);
    expect(await refs("feature", "tag")).toEqual([]);
    expect(await refs(first.id, "all")).toHaveLength(4);
    expect(await api("GET", `${commits(id)}/main/refs?type=other`, { token: owner.token })).toMatchObject({ status: 400 });
    expect(await api("GET", `${commits(id)}/nope/refs`, { token: owner.token })).toMatchObject({ status: 404, body: { message: "404 Commit Not Found" } });
    expect((await api("GET", `${commits(id)}/main/refs`, { token: (await newUser()).token })).status).toBe(404);
  });
});

describe("GET /projects/:id/repository/commits/:sha/merge_requests", () => {
  it("is an empty list (no merge requests here) after GitLab's checks: the commit exists, merge requests are readable", async () => {
    const { id } = await newProject();
    const res = await api("GET", `${commits(id)}/main/merge_requests`, { token: owner.token });
    expect(res).toMatchObject({ status: 200, body: [] });
    expect(res.headers.get("x-total")).toBe("0");
    expect(await api("GET", `${commits(id)}/nope/merge_requests`, { token: owner.token })).toMatchObject({ status: 404, body: { message: "404 Commit Not Found" } });
    expect((await api("GET", `${commits(id)}/main/merge_requests`, { token: (await newUser()).token })).status).toBe(404);
    expect((await api("GET", `${commits(id)}/main/merge_requests`)).status).toBe(404);
    expect((await api("GET", `${commits(id)}/main/merge_requests?per_page=0`, { token: owner.token })).status).toBe(400);
    expect((await api("PUT", `/api/v4/projects/${id}`, { token: owner.token, body: { merge_requests_access_level: "disabled" } })).status).toBe(200);
    expect(await api("GET", `${commits(id)}/main/merge_requests`, { token: owner.token })).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
  });
});

describe("POST /projects/:id/repository/commits/:sha/revert", () => {
  it("commits the undo on the branch with GitLab's message; a second revert of the same commit is GitLab's 400 `empty`", async () => {
    const { id, dir } = await newProject();
    const target = await commit(id, "Add blah\n\nwith a body", [{ action: "create", file_path: "blah", content: "blah" }, { action: "update", file_path: "README.md", content: "changed\n" }]);
    await commit(id, "unrelated", [{ action: "create", file_path: "other", content: "o" }]);
    const dry = await api("POST", `${commits(id)}/${target.id}/revert`, { token: owner.token, body: { branch: "main", dry_run: true } });
    expect(dry).toMatchObject({ status: 200, body: { dry_run: "success" } });
    expect(commitSubjects(dir)[0]).toBe("unrelated");

    const res = await api("POST", `${commits(id)}/${target.id}/revert`, { token: owner.token, body: { branch: "main" } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: git(dir, "rev-parse", "main").trim(),
      title: 'Revert "Add blah"',
      message: `Revert "Add blah"\n\nThis reverts commit ${target.id}`,
      parent_ids: [git(dir, "rev-parse", "main~1").trim()],
      author_name: `User ${owner.username}`,
    });
    expect(git(dir, "ls-tree", "--name-only", "main").trim().split("\n")).toEqual(["README.md", "other"]);
    expect(git(dir, "show", "main:README.md")).toBe(git(dir, "show", `${target.id}~1:README.md`));
    fsck(dir);

    const again = await api("POST", `${commits(id)}/${target.id}/revert`, { token: owner.token, body: { branch: "main" } });
    expect(again).toMatchObject({
      status: 400,
      body: {
        message: "Sorry, we cannot revert this commit automatically. This commit may already have been reverted, or a more recent commit may have updated some of its content.",
        error_code: "empty",
      },
    });
  });

  it("refuses a conflict with GitLab's 400 `conflict`, an unknown commit or branch with 404, bad input with 400", async () => {
    const { id, dir } = await newProject();
    const target = await commit(id, "edit", [{ action: "update", file_path: "README.md", content: "one\n" }]);
    await commit(id, "edit again", [{ action: "update", file_path: "README.md", content: "two\n" }]);
    const head = git(dir, "rev-parse", "main").trim();
    expect(await api("POST", `${commits(id)}/${target.id}/revert`, { token: owner.token, body: { branch: "main" } })).toMatchObject({ status: 400, body: { error_code: "conflict" } });
    expect(await api("POST", `${commits(id)}/${target.id}/revert`, { token: owner.token, body: { branch: "main", dry_run: true } })).toMatchObject({ status: 400, body: { error_code: "conflict", dry_run: "error" } });
    expect(await api("POST", `${commits(id)}/nope/revert`, { token: owner.token, body: { branch: "main" } })).toMatchObject({ status: 404, body: { message: "404 Commit Not Found" } });
    expect(await api("POST", `${commits(id)}/${target.id}/revert`, { token: owner.token, body: { branch: "nope" } })).toMatchObject({ status: 404, body: { message: "404 Branch Not Found" } });
    expect(await api("POST", `${commits(id)}/${target.id}/revert`, { token: owner.token, body: {} })).toMatchObject({ status: 400 });
    expect(await api("POST", `${commits(id)}/${target.id}/revert`, { token: owner.token, body: { branch: "main", extra: 1 } })).toMatchObject({ status: 400 });
    expect(git(dir, "rev-parse", "main").trim()).toBe(head);
  });

  it("goes through the write path: refused while the repository is read-only (a storage move), and by scope and role", async () => {
    const { id, dir } = await newProject();
    const target = await commit(id, "to revert", [{ action: "create", file_path: "x", content: "x" }]);
    await updateItem({ pk: `PROJECT#${id}`, sk: "PROJECT", update: "SET readOnly = :t", values: { ":t": true } });
    const refused = await api("POST", `${commits(id)}/${target.id}/revert`, { token: owner.token, body: { branch: "main" } });
    expect(refused).toMatchObject({ status: 409, body: { message: "The repository is temporarily read-only. Please try again later." } });
    expect(refused.headers.get("retry-after")).toBe("30");
    await updateItem({ pk: `PROJECT#${id}`, sk: "PROJECT", update: "SET readOnly = :f", values: { ":f": false } });
    expect(commitSubjects(dir)[0]).toBe("to revert");

    expect((await api("POST", `${commits(id)}/${target.id}/revert`, { body: { branch: "main" } })).status).toBe(401);
    const readApi = await newUser({ scopes: ["read_api"] });
    expect((await api("POST", `${commits(id)}/${target.id}/revert`, { token: readApi.token, body: { branch: "main" } })).status).toBe(403);
    expect((await api("POST", `${commits(id)}/${target.id}/revert`, { token: (await newUser()).token, body: { branch: "main" } })).status).toBe(404);
    expect(commitSubjects(dir)[0]).toBe("to revert");
  });
});

describe("POST /projects/:id/repository/commits/:sha/cherry_pick", () => {
  it("makes the commit's change again on the branch, keeping its author; a second pick is GitLab's 400 `empty`", async () => {
    const { id, dir } = await newProject();
    const picker = await newUser();
    expect((await api("POST", `/api/v4/projects/${id}/members`, { token: owner.token, body: { user_id: picker.id, access_level: 30 } })).status).toBe(201);
    await commit(id, "prepare", [{ action: "create", file_path: "keep.txt", content: "k\n" }], "stable", "main");
    const target = await commit(id, "Add feature\n\nwith a body", [{ action: "create", file_path: "feature.txt", content: "f\n" }, { action: "update", file_path: "README.md", content: "changed\n" }]);
    const dry = await api("POST", `${commits(id)}/${target.id}/cherry_pick`, { token: picker.token, body: { branch: "stable", dry_run: true } });
    expect(dry).toMatchObject({ status: 200, body: { dry_run: "success" } });
    expect(commitSubjects(dir, "stable")[0]).toBe("prepare");

    const res = await api("POST", `${commits(id)}/${target.id}/cherry_pick`, { token: picker.token, body: { branch: "stable" } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      id: git(dir, "rev-parse", "stable").trim(),
      title: "Add feature",
      message: `Add feature\n\nwith a body\n\n(cherry picked from commit ${target.id})`,
      parent_ids: [git(dir, "rev-parse", "stable~1").trim()],
      author_name: `User ${owner.username}`,
      committer_name: `User ${picker.username}`,
      web_url: expect.stringContaining(`/-/commit/${res.body.id}`),
    });
    expect(git(dir, "ls-tree", "--name-only", "stable").trim().split("\n")).toEqual(["README.md", "feature.txt", "keep.txt"]);
    expect(git(dir, "show", "stable:README.md")).toBe("changed\n");
    fsck(dir);

    const again = await api("POST", `${commits(id)}/${target.id}/cherry_pick`, { token: owner.token, body: { branch: "stable" } });
    expect(again).toMatchObject({
      status: 400,
      body: {
        message: "Sorry, we cannot cherry-pick this commit automatically. This commit may already have been cherry-picked, or a more recent commit may have updated some of its content.",
        error_code: "empty",
      },
    });
    const custom = await commit(id, "another", [{ action: "create", file_path: "another.txt", content: "a" }]);
    const named = await api("POST", `${commits(id)}/${custom.id}/cherry_pick`, { token: owner.token, body: { branch: "stable", message: "Backport another" } });
    expect(named).toMatchObject({ status: 201, body: { message: "Backport another", title: "Backport another" } });
  });

  it("refuses a conflict with GitLab's 400 `conflict`, an unknown commit or branch with 404, bad input with 400", async () => {
    const { id, dir } = await newProject();
    await commit(id, "stable edit", [{ action: "update", file_path: "README.md", content: "stable\n" }], "stable", "main");
    const target = await commit(id, "main edit", [{ action: "update", file_path: "README.md", content: "main\n" }]);
    const head = git(dir, "rev-parse", "stable").trim();
    expect(await api("POST", `${commits(id)}/${target.id}/cherry_pick`, { token: owner.token, body: { branch: "stable" } })).toMatchObject({ status: 400, body: { error_code: "conflict" } });
    expect(await api("POST", `${commits(id)}/${target.id}/cherry_pick`, { token: owner.token, body: { branch: "stable", dry_run: true } })).toMatchObject({ status: 400, body: { error_code: "conflict", dry_run: "error" } });
    expect(await api("POST", `${commits(id)}/nope/cherry_pick`, { token: owner.token, body: { branch: "stable" } })).toMatchObject({ status: 404, body: { message: "404 Commit Not Found" } });
    expect(await api("POST", `${commits(id)}/${target.id}/cherry_pick`, { token: owner.token, body: { branch: "nope" } })).toMatchObject({ status: 404, body: { message: "404 Branch Not Found" } });
    expect(await api("POST", `${commits(id)}/${target.id}/cherry_pick`, { token: owner.token, body: {} })).toMatchObject({ status: 400, body: { error: expect.stringContaining("branch") } });
    expect(await api("POST", `${commits(id)}/${target.id}/cherry_pick`, { token: owner.token, body: { branch: "stable", dry_run: "perhaps" } })).toMatchObject({ status: 400 });
    expect(git(dir, "rev-parse", "stable").trim()).toBe(head);
  });

  it("goes through the write path: refused while the repository is read-only (a storage move), and by scope and role", async () => {
    const { id, dir } = await newProject();
    await api("POST", `/api/v4/projects/${id}/repository/branches`, { token: owner.token, body: { branch: "stable", ref: "main" } });
    const target = await commit(id, "to pick", [{ action: "create", file_path: "x", content: "x" }]);
    await updateItem({ pk: `PROJECT#${id}`, sk: "PROJECT", update: "SET readOnly = :t", values: { ":t": true } });
    const refused = await api("POST", `${commits(id)}/${target.id}/cherry_pick`, { token: owner.token, body: { branch: "stable" } });
    expect(refused).toMatchObject({ status: 409, body: { message: "The repository is temporarily read-only. Please try again later." } });
    expect(refused.headers.get("retry-after")).toBe("30");
    await updateItem({ pk: `PROJECT#${id}`, sk: "PROJECT", update: "SET readOnly = :f", values: { ":f": false } });
    expect(commitSubjects(dir, "stable")[0]).not.toBe("to pick");

    expect((await api("POST", `${commits(id)}/${target.id}/cherry_pick`, { body: { branch: "stable" } })).status).toBe(401);
    const readApi = await newUser({ scopes: ["read_api"] });
    expect((await api("POST", `${commits(id)}/${target.id}/cherry_pick`, { token: readApi.token, body: { branch: "stable" } })).status).toBe(403);
    expect((await api("POST", `${commits(id)}/${target.id}/cherry_pick`, { token: (await newUser()).token, body: { branch: "stable" } })).status).toBe(404);
    const reporter = await newUser();
    await api("POST", `/api/v4/projects/${id}/members`, { token: owner.token, body: { user_id: reporter.id, access_level: 20 } });
    expect(await api("POST", `${commits(id)}/${target.id}/cherry_pick`, { token: reporter.token, body: { branch: "stable" } })).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
    expect(commitSubjects(dir, "stable")[0]).not.toBe("to pick");
  });
});

describe("GET /projects/:id/repository/merge_base", () => {
  it("answers the common ancestor for refs[] or comma-separated refs, GitLab's 400s and 404s otherwise", async () => {
    const { id, dir } = await newProject();
    const base = await commit(id, "base", [{ action: "create", file_path: "a", content: "a" }]);
    await commit(id, "feature work", [{ action: "create", file_path: "b", content: "b" }], "feature", "main");
    await commit(id, "main work", [{ action: "create", file_path: "c", content: "c" }]);
    const url = `/api/v4/projects/${id}/repository/merge_base`;
    const res = await api("GET", `${url}?refs[]=main&refs[]=feature`, { token: owner.token });
    expect(res).toMatchObject({ status: 200, body: { id: base.id, message: "base", parent_ids: [git(dir, "rev-parse", `${base.id}~1`).trim()] } });
    expect(git(dir, "merge-base", "main", "feature").trim()).toBe(base.id);
    expect((await api("GET", `${url}?refs=main,feature`, { token: owner.token })).body.id).toBe(base.id);

    expect(await api("GET", `${url}?refs[]=main`, { token: owner.token })).toMatchObject({ status: 400, body: { message: "Provide at least 2 refs" } });
    expect(await api("GET", `${url}?refs=main`, { token: owner.token })).toMatchObject({ status: 400, body: { message: "Provide at least 2 refs" } });
    expect(await api("GET", url, { token: owner.token })).toMatchObject({ status: 400, body: { error: "refs is missing" } });
    expect(await api("GET", `${url}?refs[]=main&refs[]=missing`, { token: owner.token })).toMatchObject({ status: 400, body: { message: "Could not find ref: missing" } });
    expect(await api("GET", `${url}?refs[]=x&refs[]=y&refs[]=main`, { token: owner.token })).toMatchObject({ status: 400, body: { message: "Could not find refs: x, y" } });
    // Histories that never meet: an orphan branch pushed with git.
    const orphanTree = git(dir, "mktree").trim();
    const orphan = git(dir, "-c", "user.name=o", "-c", "user.email=o@example.com", "commit-tree", orphanTree, "-m", "orphan").trim();
    git(dir, "update-ref", "refs/heads/orphan", orphan);
    expect(await api("GET", `${url}?refs[]=main&refs[]=orphan`, { token: owner.token })).toMatchObject({ status: 404, body: { message: "404 Merge Base Not Found" } });
    expect((await api("GET", `${url}?refs[]=main&refs[]=feature`, { token: (await newUser()).token })).status).toBe(404);
  });
});

describe("GET /projects/:id/repository/commits?all=true", () => {
  it("lists the commits of every ref, newest first, where the default lists the default branch's only", async () => {
    const { id, dir } = await newProject();
    const onBranch = await commit(id, "on new-branch", [{ action: "create", file_path: "n", content: "n" }], "new-branch", "main");
    git(dir, "tag", "only-a-tag", git(dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit-tree", git(dir, "rev-parse", "main^{tree}").trim(), "-m", "tagged only", "-p", "main").trim());
    const ids = async (query: string) => ((await api("GET", `${commits(id)}${query}`, { token: owner.token })).body as Array<{ id: string }>).map((c) => c.id);
    expect(await ids("")).not.toContain(onBranch.id);
    const all = await ids("?all=true");
    expect(new Set(all)).toEqual(new Set(git(dir, "rev-list", "--all").trim().split("\n")));
    expect(all).toContain(onBranch.id);
    expect(all).toHaveLength(3);
    // `ref_name` is ignored with `all`, as GitLab's `git log --all`; pages walk the same order.
    expect(await ids("?all=true&ref_name=main")).toEqual(all);
    const pages = [...(await ids("?all=true&per_page=2")), ...(await ids("?all=true&per_page=2&page=2"))];
    expect(pages).toEqual(all);
    expect((await api("GET", `${commits(id)}?all=maybe`, { token: owner.token })).status).toBe(400);
  });
});
