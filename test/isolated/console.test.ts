/**
 * The operator console's functions as they deploy (the "isolated" project): each JSON route answers
 * from its own Lambda bundle with only its links: the storages' free space read on the storages, a
 * move's execution events read through the Step Functions stand-in by the one function linked to read
 * them, the pages and their scripts served.
 */
import { describe, it, expect } from "vitest";
import { api, newUser, unique } from "../support/api.js";

describe("the operator console in isolated mode", () => {
  it("answers every view of a finished move from the functions' bundles", async () => {
    const admin = await newUser({ admin: true });
    const as = (path: string) => api("GET", path, { token: admin.token });
    const project = await api("POST", "/api/v4/projects", { token: admin.token, body: { name: unique("console"), initialize_with_readme: true } });
    expect(project.status).toBe(201);
    const from = project.body.repository_storage as string;
    const to = from === "secondary" ? "default" : "secondary";
    const scheduled = await api("POST", `/api/v4/projects/${project.body.id}/repository_storage_moves`, { token: admin.token, body: { destination_storage_name: to } });
    expect(scheduled.status).toBe(201);
    const id = scheduled.body.id as number;
    const deadline = Date.now() + 120_000;
    for (;;) {
      const state = (await as(`/api/v4/project_repository_storage_moves/${id}`)).body.state;
      if (["finished", "failed", "cleanup failed"].includes(state)) break;
      if (Date.now() > deadline) throw new Error(`move ${id} still ${state}`);
      await new Promise((r) => setTimeout(r, 200));
    }

    const storages = await as("/admin/storages.json");
    expect(storages.status).toBe(200);
    expect(storages.headers.get("apigw-requestid")).toBeTruthy();
    const names = storages.body.storages.map((s: { name: string }) => s.name);
    expect(names).toEqual(expect.arrayContaining(["default", "secondary", "cluster"]));
    for (const s of storages.body.storages) expect(s.replicas.every((r: { free_bytes: number | null }) => typeof r.free_bytes === "number" && r.free_bytes > 0), s.name).toBe(true);

    const list = await as("/admin/storage_moves.json?type=project&per_page=100");
    expect(list.status).toBe(200);
    expect(list.body.moves.map((m: { id: number }) => m.id)).toContain(id);

    const details = await as(`/admin/storage_moves/project/${id}/details.json`);
    expect(details.status).toBe(200);
    expect(details.body.move).toMatchObject({ id, state: "finished", source_storage_name: from, destination_storage_name: to });
    expect(details.body.checksum).toMatch(/^[0-9a-f]{40,64}/);

    const execution = await as(`/admin/storage_moves/project/${id}/execution.json`);
    expect(execution.status).toBe(200);
    expect(execution.body).toMatchObject({ shared: false, error: null, complete: true, path: { from: "execution", current: null, failed: null } });
    expect(execution.body.events[0]).toMatchObject({ id: 1, type: "ExecutionStarted" });
    expect(execution.body.events.at(-1)).toMatchObject({ type: "ExecutionSucceeded" });

    expect((await as(`/admin/storage_moves/plan.json?source_storage_name=${to}&destination_storage_name=${from}`)).status).toBe(200);
    expect((await as("/admin/storage_moves/rebalance.json")).status).toBe(200);
    for (const page of ["/admin/storages", "/admin/storage_moves", "/admin/storage_moves/plan", `/admin/storage_moves/project/${id}`]) {
      const res = await as(page);
      expect(res.status, page).toBe(200);
      expect(res.headers.get("content-type"), page).toMatch(/^text\/html/);
    }
    expect((await api("GET", "/-/assets/admin/move.js")).status).toBe(200);
    // And to anyone else, the 404.
    const stranger = await newUser();
    expect(await api("GET", `/admin/storage_moves/project/${id}/execution.json`, { token: stranger.token })).toMatchObject({ status: 404, body: { message: "404 Not Found" } });
  });
});
