/**
 * The group-deletion job as it ships: its Lambda bundle, in its own process, with only the links
 * `stacks/` gives a cron (the table and the storages), invoked with a scheduled event on a group
 * marked for deletion with its contents.
 */
import { describe, it, expect, beforeAll, afterAll, inject } from "vitest";
import { startIsolatedFunctions, type IsolatedFunctions } from "../../local/isolated/index.js";
import { api, newUser, unique } from "../support/api.js";
import { scheduleGroupDeletion } from "../../functions/hosting/domain/group-deletion.js";
import { findGroup } from "../../functions/hosting/domain/groups.js";

let isolated: IsolatedFunctions;

beforeAll(async () => {
  isolated = await startIsolatedFunctions({ buildDir: inject("isolatedBuildDir"), prebuilt: true });
});

afterAll(async () => {
  await isolated?.stop();
});

describe("the group-deletion job from its bundle", () => {
  it("deletes a marked group's project, repository and subgroup, then the group", async () => {
    const owner = await newUser();
    const call = (method: string, path: string, body?: unknown) => api(method, path, { token: owner.token, body });
    const top = (await call("POST", "/api/v4/groups", { name: "Doomed", path: unique("doomed") })).body;
    const sub = (await call("POST", "/api/v4/groups", { name: "Sub", path: unique("sub"), parent_id: top.id })).body;
    const project = await call("POST", "/api/v4/projects", { name: "P", path: unique("p"), namespace_id: sub.id, initialize_with_readme: true });
    expect(project.status).toBe(201);
    // Marked as DELETE marks a tree it has no time left for, so the job's bundle has the work.
    await scheduleGroupDeletion((await findGroup(top.id))!);

    const result = await isolated.pool.invoke(isolated.definition("hosting/workers/group-deletions"), { source: "aws.scheduler", time: new Date().toISOString() });
    expect(result).toEqual({ deletedGroups: expect.any(Number), deletedProjects: expect.any(Number), pending: expect.any(Number) });
    // The runtime's own timer runs the same bundle every minute and may have taken part: the two
    // runs may overlap, and what matters is that the whole tree is gone.
    for (const path of [`/api/v4/groups/${top.id}`, `/api/v4/groups/${sub.id}`, `/api/v4/projects/${project.body.id}`]) {
      await expect.poll(async () => (await call("GET", path)).status, { message: path }).toBe(404);
    }
  });
});
