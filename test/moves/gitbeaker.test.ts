/** The real `@gitbeaker/rest` client, unmodified, schedules, lists and shows storage moves. */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { Gitlab } from "@gitbeaker/rest";
import { startIsolatedRuntime, type IsolatedRuntime } from "./isolated-runtime.js";
import { newProject, newSnippet } from "./support.js";

let iso: IsolatedRuntime;
let api: InstanceType<typeof Gitlab>;
beforeAll(async () => {
  iso = await startIsolatedRuntime();
  api = new Gitlab({ host: iso.baseUrl, token: iso.token });
});
afterAll(async () => iso?.stop());

async function until<T>(read: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("condition not reached");
}

describe("@gitbeaker/rest", () => {
  it("schedules a project move, lists and shows it until it is finished", async () => {
    const project = await newProject(iso);
    const scheduled = await api.ProjectRepositoryStorageMoves.schedule("default", { projectId: project.id, destinationStorageName: "secondary" });
    expect(scheduled).toMatchObject({ state: "scheduled", source_storage_name: "default", destination_storage_name: "secondary", project: { id: project.id } });
    const finished = await until(
      () => api.ProjectRepositoryStorageMoves.show(scheduled.id as number, { projectId: project.id }),
      (m) => m.state === "finished",
    );
    expect(finished.id).toBe(scheduled.id);
    const listed = await api.ProjectRepositoryStorageMoves.all({ projectId: project.id });
    expect(listed.map((m) => m.id)).toContain(scheduled.id);
    const all = await api.ProjectRepositoryStorageMoves.all();
    expect(all[0]!.id).toBe(scheduled.id);
    const moved = await api.Projects.show(project.id);
    expect(moved.repository_storage).toBe("secondary");
  });

  it("schedules a bulk snippet move off a storage", async () => {
    const snippet = await newSnippet(iso);
    await api.SnippetRepositoryStorageMoves.schedule("default", { destinationStorageName: "cluster" });
    const moves = await until(
      () => api.SnippetRepositoryStorageMoves.all({ snippetId: snippet.id }),
      (list) => list.length > 0 && list[0]!.state === "finished",
    );
    expect(moves[0]).toMatchObject({ source_storage_name: "default", destination_storage_name: "cluster", snippet: { id: snippet.id } });
  });
});
