/**
 * python-gitlab (Debian's python3-gitlab, 3.12) runs the seed's storage-move procedure and its
 * key-rotation procedure against a hosted instance, the member, sharing and access request calls
 * scripts make, reads and cherry-picks a project's history, and calls the endpoints of
 * `api_endpoints.py` (a group's projects, …). Part of `npm run test:clients`; a machine without the
 * client fails here with the command that installs it.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { ownRuntime } from "../support/own-runtime.js";
import { DEBIAN_PYTHON, requireTool } from "./tools.js";

let instance: Awaited<ReturnType<typeof ownRuntime>>;

beforeAll(async () => {
  requireTool(DEBIAN_PYTHON, ["-c", "import gitlab"], "sudo apt-get install python3-gitlab");
  instance = await ownRuntime({ offering: "hosted" });
});
afterAll(() => instance?.stop());

describe("python-gitlab", () => {
  it("empties a storage by the seed's procedure and rotates a client key", async () => {
    const { stdout } = await promisify(execFile)(DEBIAN_PYTHON, [join(import.meta.dirname, "seed_procedures.py")], {
      env: { ...process.env, GITLAB_URL: instance.runtime.baseUrl, GITLAB_TOKEN: instance.runtime.bootstrap.token! },
    });
    const seen = JSON.parse(stdout);
    expect(seen.user).toBe("root");
    expect(seen.python_gitlab).toMatch(/^3\./);
    expect(seen.project_storage_before).toBe("default");
    expect(seen.weights).toEqual({ default: 0, secondary: 100, cluster: 0 });
    expect(seen.move_states).toEqual(["finished"]);
    expect(seen.projects_left_on_default).toEqual([]);
    expect(seen.project_storage_after).toBe("secondary");
    expect(seen.snippet_storage_after).toBe("secondary");
    expect(seen.keys_listed).toEqual(seen.keys_created);
    expect(seen.dsn_shape).toBe(true);
    expect(seen.keys_after_delete).toEqual([seen.new_key_id]);
    expect(seen.same_storage).toEqual({ status: 400, message: expect.stringMatching(/destination.*source|same/i) });
  });

  it("lists archived projects, walks totals (projects, groups, members) and keyset pages, walks a tree recursively, and revokes a token by id", async () => {
    const { stdout } = await promisify(execFile)(DEBIAN_PYTHON, [join(import.meta.dirname, "lists_and_tokens.py")], {
      env: { ...process.env, GITLAB_URL: instance.runtime.baseUrl, GITLAB_TOKEN: instance.runtime.bootstrap.token! },
    });
    const seen = JSON.parse(stdout);
    expect(seen.archived_listed).toEqual([seen.archived_id]);
    expect(seen.unarchived_listed).toContain(seen.kept_id);
    expect(seen.unarchived_listed).not.toContain(seen.archived_id);
    // X-Total makes python-gitlab's totals numbers, and it has nothing to warn about.
    expect(seen.total).toBe(seen.walked);
    expect(seen.total_pages).toBe(seen.walked);
    expect(seen.warnings).toEqual([]);
    expect(seen.keyset).toHaveLength(seen.walked);
    expect(seen.keyset).toEqual([...seen.keyset].sort((a: number, b: number) => a - b));
    expect(seen.group_total).toBe(seen.group_walked);
    expect(seen.group_walked).toBeGreaterThanOrEqual(2);
    expect(seen.member_total).toBe(1);
    expect(seen.group_warnings).toEqual([]);
    expect(seen.tree).toEqual(["docs", "docs/guide", "docs/guide/intro.md"]);
    expect(seen.tokens_before).toContain(seen.token_id);
    expect(seen.tokens_after).toContainEqual([seen.token_id, true]);
  });

  it("gets and saves one project member, gets effective members, shares a project and approves an access request", async () => {
    const { stdout } = await promisify(execFile)(DEBIAN_PYTHON, [join(import.meta.dirname, "members_and_shares.py")], {
      env: { ...process.env, GITLAB_URL: instance.runtime.baseUrl, GITLAB_TOKEN: instance.runtime.bootstrap.token! },
    });
    const seen = JSON.parse(stdout);
    const { alice, bob, carol } = seen.ids;
    expect(seen.member).toEqual([alice, "py_alice", 30]);
    expect(seen.member_after_save).toBe(40);
    expect(seen.member_all).toBe(40);
    expect(seen.group_member_all).toBe(30);
    expect(seen.shared_member_all).toBe(20);
    expect(seen.users).toEqual(expect.arrayContaining([alice, bob]));
    expect(seen.shared_projects).toEqual([seen.project_id]);
    expect(seen.shared_with_groups).toHaveLength(1);
    expect(seen.after_unshare).toBe(404);
    expect(seen.requests).toEqual([carol]);
    expect(seen.approved_level).toBe(20);
    expect(seen.requests_after).toEqual([]);
  });

  it("lists a group's projects, moderates a user, sets a status, moves a project, links a fork", async () => {
    const { stdout } = await promisify(execFile)(DEBIAN_PYTHON, [join(import.meta.dirname, "api_endpoints.py")], {
      env: { ...process.env, GITLAB_URL: instance.runtime.baseUrl, GITLAB_TOKEN: instance.runtime.bootstrap.token! },
    });
    const seen = JSON.parse(stdout);
    const { first, second, below, group } = seen.created;
    expect(seen.group_projects).toEqual([second, first]);
    expect(seen.group_projects_with_subgroups).toEqual([first, second, below].sort((a: number, b: number) => a - b));
    expect(seen.group_projects_names).toEqual(["py-first", "py-second"]);
    expect(seen.group_project_namespace).toBe(group);
    expect([seen.deactivate, seen.deactivated_state, seen.activate, seen.activated_state]).toEqual([true, "deactivated", true, "active"]);
    expect(seen.approve).toEqual([409, "The user you are trying to approve is not pending approval"]);
    expect(seen.status).toEqual(["Deploying", "rocket"]);
    expect(seen.activity_users).toContain("root");
    expect(seen.transferred_namespace).toBe(group);
    expect(seen.forked_from).toBe(seen.more.source);
    expect(seen.unforked).toBe(true);
    expect(seen.restore).toEqual([400, "Project has not been marked for deletion"]);
  });

  it("reads a commit, compares branches, lists contributors and languages, and cherry-picks", async () => {
    const { stdout } = await promisify(execFile)(DEBIAN_PYTHON, [join(import.meta.dirname, "repository_reads.py")], {
      env: { ...process.env, GITLAB_URL: instance.runtime.baseUrl, GITLAB_TOKEN: instance.runtime.bootstrap.token! },
    });
    const seen = JSON.parse(stdout);
    expect(seen.commit).toEqual({ id: seen.feature_id, title: "Add the app", stats: { additions: 1, deletions: 0, total: 1 }, status: null });
    expect(seen.commit_by_branch).toBe(seen.feature_id);
    expect(seen.compare_commits).toEqual([seen.feature_id]);
    expect(seen.compare_diffs).toEqual(["app.py"]);
    expect(seen.contributors).toEqual([[expect.stringMatching(/@/), 2]]);
    expect(seen.languages).toEqual({ Python: 100 });
    expect(seen.picked_to_main).toBe("Add the app");
    expect(seen.picked_author).toBe(true);
  });
});
