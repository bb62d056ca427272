/**
 * Least privilege as isolated mode enforces it: a probe bundled like every function, run with the
 * environment of a real one, sees exactly the links `stacks/` gives that function. A call to a
 * service it is not linked to is refused (AccessDeniedException), as IAM refuses it on AWS.
 */
import { describe, it, expect, beforeAll, afterAll, inject } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { CreateQueueCommand, SQSClient } from "@aws-sdk/client-sqs";
import { bundleEntry } from "../../local/isolated/bundle.js";
import { startIsolatedFunctions, type IsolatedFunctions } from "../../local/isolated/index.js";
import { unique } from "../support/api.js";

type Probe = { queueLink: string; machineLink: string; tableLink: string; sqs: string; sfn: string };

const probeDir = mkdtempSync(join(tmpdir(), "forgeline-probe-"));
let isolated: IsolatedFunctions;
let probeBundle: string;
let target: { queueUrl: string; machineArn: string };

beforeAll(async () => {
  probeBundle = await bundleEntry(resolve(import.meta.dirname, "probe.ts"), probeDir, "probe");
  isolated = await startIsolatedFunctions({ buildDir: inject("isolatedBuildDir"), prebuilt: true });
  // A queue of its own, so a probe that may send does not feed the real consumer.
  const sqs = new SQSClient({ endpoint: process.env.AWS_ENDPOINT_URL_SQS });
  const queueUrl = (await sqs.send(new CreateQueueCommand({ QueueName: unique("probe") }))).QueueUrl!;
  target = { queueUrl, machineArn: JSON.parse(process.env.SST_RESOURCE_StorageMoveMachine!).arn };
});

afterAll(async () => {
  await isolated?.stop();
  rmSync(probeDir, { recursive: true, force: true });
});

/** The probe, run with the environment isolated mode gives `module`. */
const probeAs = async (module: string) =>
  (await isolated.pool.invoke({ ...isolated.definition(module), name: `probe-as-${module}`, bundle: probeBundle }, target)) as Probe;

const notLinked = (name: string) => `Error: ${name} is not linked to this function`;
const denied = (permission: string) => new RegExp(`^AccessDeniedException: .*${permission}`);

describe("isolated mode: a function reaches only what stacks/ links to it", () => {
  it("a route outside errortracking/ and moves/ reaches the table, but neither the queue nor the state machine", async () => {
    const probe = await probeAs("identity/http/version");
    expect(probe.tableLink).toBe("ok");
    expect(probe.queueLink).toBe(notLinked("IngestQueue"));
    expect(probe.machineLink).toBe(notLinked("StorageMoveMachine"));
    // Even knowing the queue's URL and the machine's ARN, the calls are refused.
    expect(probe.sqs).toMatch(denied("sqs:SendMessage"));
    expect(probe.sfn).toMatch(denied("states:ListExecutions"));
    expect(isolated.denied.refused).toEqual(expect.arrayContaining(["sqs:SendMessage", "states:ListExecutions"]));
  });

  it("an error-tracking route reaches the queue, not the state machine", async () => {
    const probe = await probeAs("errortracking/http/list-client-keys");
    expect(probe).toMatchObject({ tableLink: "ok", queueLink: "ok", sqs: "ok", machineLink: notLinked("StorageMoveMachine") });
    expect(probe.sfn).toMatch(denied("states:ListExecutions"));
  });

  it("a moves/ route reaches the state machine, not the queue", async () => {
    const probe = await probeAs("moves/http/projects/list-storage-moves");
    expect(probe).toMatchObject({ tableLink: "ok", machineLink: "ok", sfn: "ok", queueLink: notLinked("IngestQueue") });
    expect(probe.sqs).toMatch(denied("sqs:SendMessage"));
  });

  it("the project update, which schedules a move when the storage changes, reaches the state machine; project creation does not", async () => {
    const update = await probeAs("hosting/http/update-project");
    expect(update).toMatchObject({ tableLink: "ok", machineLink: "ok", sfn: "ok", queueLink: notLinked("IngestQueue") });
    const create = await probeAs("hosting/http/create-project");
    expect(create).toMatchObject({ tableLink: "ok", machineLink: notLinked("StorageMoveMachine") });
    expect(create.sfn).toMatch(denied("states:ListExecutions"));
  });

  it("a state-machine task has no link back to the machine that invokes it", async () => {
    const probe = await probeAs("moves/tasks/start");
    expect(probe.tableLink).toBe("ok");
    expect(probe.machineLink).toBe(notLinked("StorageMoveMachine"));
    expect(probe.sfn).toMatch(denied("states:ListExecutions"));
  });

  it("passes no resource setting outside the links (no data folder, no other instance config source)", () => {
    const env = isolated.definition("identity/http/version").env();
    expect(Object.keys(env).filter((k) => k.startsWith("SST_RESOURCE_")).sort()).toEqual(["SST_RESOURCE_BootstrapAdminToken", "SST_RESOURCE_Main"]);
    for (const name of ["FORGELINE_DATA_DIR", "FORGELINE_CONFIG", "FORGELINE_SECRET_KEY", "FORGELINE_INGEST_URL", "AWS_LAMBDA_FUNCTION_NAME"]) expect(env[name], name).toBeUndefined();
    expect(env.AWS_ENDPOINT_URL_SQS).toBe(isolated.denied.url);
    expect(JSON.parse(env.FORGELINE_CONFIG_JSON!).storages.default.path).toMatch(/^\//);
    const web = isolated.definition("web/http/settings-page").env();
    expect(web.FORGELINE_SECRET_KEY).toMatch(/^[A-Za-z0-9+/]{43}=$/);
  });
});
