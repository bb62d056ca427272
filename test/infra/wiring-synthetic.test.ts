/**
 * Like wiring.test.ts, but with a synthetic route table and ASL that exercise every branch the real
 * table may not reach yet: storage mounts, queue/state-machine links, the queue consumer, the ingest
 * URL, crons, and task ARNs in the state machine and its IAM policy.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { declared, installFakeSst, uninstallFakeSst, unwrap, type FakeResource } from "./fake-sst";

vi.mock("../../functions/routes", () => ({
  routes: [
    { method: "GET", path: "/api/v4/version", module: "identity/http/version" },
    { method: "GET", path: "/api/v4/projects/:id/repository/tree", module: "hosting/http/tree" },
    { method: "PUT", path: "/api/v4/projects/:id/repository_storage_moves", module: "moves/http/schedule" },
    { method: "GET", path: "/api/:project_id/events", module: "errortracking/http/list" },
  ],
  workers: [
    { name: "ingest", module: "errortracking/ingest", kind: "url" },
    { name: "ingest-consumer", module: "errortracking/consume", kind: "queue" },
    { name: "cleanup", module: "platform/cleanup", kind: "cron", schedule: "rate(1 hour)" },
    { name: "copy-repository", module: "moves/tasks/copy", kind: "task" },
    { name: "finish-move", module: "moves/tasks/finish", kind: "task" },
  ],
}));

const asl = {
  StartAt: "Copy",
  States: {
    Copy: { Type: "Task", Resource: "${task:copy-repository}", Next: "Finish" },
    Finish: { Type: "Task", Resource: "${task:finish-move}", End: true },
  },
};

const cwd = process.cwd();
const byName = (name: string) => declared.find((d) => d.name === name)!;
const links = (fn: { link?: unknown }) => (unwrap(fn.link) as FakeResource[]).map((r) => r.name);

beforeAll(async () => {
  // jobs.ts reads the ASL relative to the working directory (SST runs from the app root).
  const dir = mkdtempSync(join(tmpdir(), "forgeline-infra-"));
  mkdirSync(join(dir, "functions/moves"), { recursive: true });
  writeFileSync(join(dir, "functions/moves/storage-move.asl.json"), JSON.stringify(asl));
  process.chdir(dir);
  installFakeSst("production");
  const configModule = "../../sst.config.ts"; // not a literal import: see wiring.test.ts
  const config = (await import(/* @vite-ignore */ configModule)).default;
  await config.run();
});

afterAll(() => {
  process.chdir(cwd);
  uninstallFakeSst();
});

describe("synthetic route table", () => {
  const api = () => byName("Api").resource.calls.map((c) => c.args[1]);

  it("mounts storage and joins the VPC only for hosting/ and moves/", () => {
    const [version, tree, moves, errors] = api();
    for (const fn of [tree, moves]) expect(fn.volume).toMatchObject({ path: "/mnt/storages" });
    for (const fn of [version, errors]) expect(fn.volume).toBeUndefined();
    expect(tree.vpc).toBe(byName("Vpc").resource);
  });

  it("links the queue and the state machine by context", () => {
    const [version, tree, moves, errors] = api();
    expect(links(version)).toEqual(["Main", "BootstrapAdminToken"]);
    expect(links(tree)).toEqual(["Main", "BootstrapAdminToken"]);
    expect(links(moves)).toEqual(["Main", "StorageMoveMachine", "BootstrapAdminToken"]);
    expect(links(errors)).toEqual(["Main", "IngestQueue", "BootstrapAdminToken"]);
  });

  it("subscribes the queue worker and exposes the url worker", () => {
    const [sub] = byName("IngestQueue").resource.calls;
    expect(sub!.args[0].handler).toBe("functions/errortracking/consume.handler");
    expect(links(sub!.args[0])).toEqual(["Main", "IngestQueue"]);
    const ingest = byName("Ingest").args;
    expect(ingest).toMatchObject({ handler: "functions/errortracking/ingest.handler", url: true });
    expect(links(ingest)).toEqual(["Main", "IngestQueue"]);
  });

  it("schedules the cron worker", () => {
    expect(byName("CronCleanup").args).toMatchObject({ schedule: "rate(1 hour)" });
  });

  it("builds the state machine from the ASL with task ARNs, and lets it invoke only those", () => {
    const copy = byName("TaskCopyRepository");
    const finish = byName("TaskFinishMove");
    expect(copy.args.volume).toMatchObject({ path: "/mnt/storages" });
    expect(links(copy.args)).toEqual(["Main"]); // no link back to the machine that invokes it
    const definition = JSON.parse(unwrap(byName("StorageMoveStateMachine").args.definition));
    expect(definition.States.Copy.Resource).toBe(unwrap(copy.resource.arn));
    expect(definition.States.Finish.Resource).toBe(unwrap(finish.resource.arn));
    const policy = JSON.parse(unwrap(byName("StorageMoveInvoke").args.policy));
    expect(policy.Statement[0].Action).toBe("lambda:InvokeFunction");
    expect(policy.Statement[0].Resource).toEqual([
      unwrap(copy.resource.arn),
      `${unwrap(copy.resource.arn)}:*`,
      unwrap(finish.resource.arn),
      `${unwrap(finish.resource.arn)}:*`,
    ]);
  });
});
