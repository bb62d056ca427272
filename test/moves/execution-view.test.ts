/**
 * Failures where operators look: a bulk execution's output counts its scheduled, finished, failed
 * and skipped moves and its status says when one failed; the local Step Functions stand-in answers
 * `GetExecutionHistory` (and `DescribeExecution` with input and output) through the AWS SDK as AWS
 * does; `moves watch` counts each move once and says what failed plainly. On a runtime of this file's
 * own, whose task handlers run in this process (so injected faults reach them).
 */
import { describe, it, expect, beforeAll, afterAll, afterEach } from "vitest";
import { DescribeExecutionCommand, GetExecutionHistoryCommand, ListExecutionsCommand, type HistoryEvent } from "@aws-sdk/client-sfn";
import { sfnClient } from "../../functions/platform/aws-sfn.js";
import { resources } from "../../functions/platform/resources.js";
import { updateItem } from "../../functions/platform/db/table.js";
import { injectMoveFaults } from "../../functions/moves/domain/fault-injection.js";
import { StorageIOError } from "../../functions/moves/domain/errors.js";
import { connect } from "../../functions/moves/cli/client.js";
import { runMovesCli } from "../../functions/moves/cli/commands.js";
import { startIsolatedRuntime, type IsolatedRuntime } from "./isolated-runtime.js";
import { call, newProject } from "./support.js";

let iso: IsolatedRuntime;
beforeAll(async () => {
  iso = await startIsolatedRuntime();
  process.env.FORGELINE_MOVE_BATCH_SIZE = "1"; // a fault aimed at one move fails that move only
});
afterAll(async () => iso?.stop());
afterEach(() => injectMoveFaults(undefined));

/** The newest bulk execution: its description and its whole history, read page by page. */
async function lastBulkExecution() {
  const listed = await sfnClient().send(new ListExecutionsCommand({ stateMachineArn: resources.storageMoveMachineArn() }));
  const arn = listed.executions!.find((e) => e.name!.startsWith("bulk-"))!.executionArn!;
  const described = await sfnClient().send(new DescribeExecutionCommand({ executionArn: arn }));
  const events: HistoryEvent[] = [];
  let nextToken: string | undefined;
  do {
    const page = await sfnClient().send(new GetExecutionHistoryCommand({ executionArn: arn, maxResults: 25, nextToken }));
    events.push(...page.events!);
    nextToken = page.nextToken;
  } while (nextToken);
  return { arn, described, events };
}

const bulk = (source: string, destination: string) =>
  call(iso, "POST", "/api/v4/project_repository_storage_moves", { body: { source_storage_name: source, destination_storage_name: destination } });

describe("a bulk execution", () => {
  it("that moved everything it could: SUCCEEDED, its output counts scheduled, finished and skipped moves", async () => {
    const [a, b, locked] = [await newProject(iso), await newProject(iso), await newProject(iso)];
    const storage = async (id: number) => (await call(iso, "GET", `/api/v4/projects/${id}`)).body.repository_storage;
    await updateItem({ pk: `PROJECT#${locked.id}`, sk: "PROJECT", update: "SET readOnly = :t", values: { ":t": true } });
    expect((await bulk("default", "secondary")).status).toBe(202);
    await iso.runtime.settle();
    await updateItem({ pk: `PROJECT#${locked.id}`, sk: "PROJECT", update: "SET readOnly = :f", values: { ":f": false } });

    const { described, events } = await lastBulkExecution();
    expect(described.status).toBe("SUCCEEDED");
    expect(JSON.parse(described.input!)).toMatchObject({ bulk: { kind: "project", source: "default", destination: "secondary" } });
    expect(JSON.parse(described.output!)).toEqual({
      scheduled: 2,
      finished: 2,
      failed: 0,
      skipped: 1,
      canceled: 0,
      failedMoves: [],
      summary: "2 project repository moves off default scheduled (2 finished, 1 skipped)",
    });
    expect(events.at(-1)).toMatchObject({ type: "ExecutionSucceeded", executionSucceededEventDetails: { output: described.output } });
    expect([await storage(a.id), await storage(b.id), await storage(locked.id)]).toEqual(["secondary", "secondary", "default"]);
  });

  it("with a failed move: FAILED, the cause counts the moves and names the failed one; the history shows it all, AWS-shaped", async () => {
    const doomed = (await Promise.all([newProject(iso), newProject(iso)]))[1];
    injectMoveFaults((task, phase, input) => {
      const batch = input as { moves?: Array<{ containerId: number }> };
      if (task === "moveReplicate" && phase === "before" && batch.moves?.[0]?.containerId === doomed.id) throw new StorageIOError("injected: the destination is gone");
    });
    // Everything on default now: this test's two projects and the one the previous test skipped.
    expect((await bulk("default", "cluster")).status).toBe(202);
    await iso.runtime.settle();

    const { arn, described, events } = await lastBulkExecution();
    const moves = (await call(iso, "GET", `/api/v4/projects/${doomed.id}/repository_storage_moves`)).body;
    const failedMove = moves[0];
    expect(failedMove).toMatchObject({ state: "failed", error_message: "injected: the destination is gone" });
    expect(described).toMatchObject({ status: "FAILED", error: "StorageMovesFailed" });
    expect(described.cause).toBe(`1 of 3 project repository moves off default failed (2 finished, 0 skipped): move ${failedMove.id} failed: injected: the destination is gone`);

    // The history: numbered from 1, each pointing at the one before, from ExecutionStarted (with the input) to ExecutionFailed (with the cause).
    expect(events.map((e) => e.id)).toEqual(events.map((_, i) => i + 1));
    expect(events.every((e, i) => e.previousEventId === i && e.timestamp instanceof Date)).toBe(true);
    expect(events[0]).toMatchObject({ type: "ExecutionStarted", executionStartedEventDetails: { input: described.input } });
    expect(events.at(-1)).toMatchObject({ type: "ExecutionFailed", executionFailedEventDetails: { error: "StorageMovesFailed", cause: described.cause } });
    const types = new Set(events.map((e) => e.type));
    for (const type of ["ChoiceStateEntered", "PassStateEntered", "ParallelStateEntered", "MapStateEntered", "MapIterationStarted", "TaskStateEntered", "TaskSucceeded", "TaskStateExited", "FailStateEntered"]) expect(types, type).toContain(type);
    const entered = events.filter((e) => e.type === "TaskStateEntered").map((e) => e.stateEnteredEventDetails!.name);
    expect(entered).toEqual(expect.arrayContaining(["ScheduleBatch", "StartMoves", "Replicate", "SwitchStorage", "Cleanup", "Finish", "MarkFailed", "SummariseBulk"]));
    // The failed move's cause travels to the failure path, as the console shows it.
    const markFailed = events.find((e) => e.type === "TaskStateEntered" && e.stateEnteredEventDetails!.name === "MarkFailed")!;
    expect(markFailed.stateEnteredEventDetails!.input).toContain("injected: the destination is gone");

    const newestFirst = await sfnClient().send(new GetExecutionHistoryCommand({ executionArn: arn, reverseOrder: true, maxResults: 1, includeExecutionData: false }));
    expect(newestFirst.events).toEqual([{ ...events.at(-1), executionFailedEventDetails: {} }]);

    // The execution view of the move says why.
    const view = (await call(iso, "GET", `/api/v4/project_repository_storage_moves/${failedMove.id}/execution`)).body;
    expect(view.error_message).toBe("injected: the destination is gone");
    expect(view.history.at(-1)).toMatchObject({ step: "failed", detail: "injected: the destination is gone" });

    // `watch` counts each move once and says plainly what failed and what stays on the source.
    const lines: string[] = [];
    const since = Math.min(...(await call(iso, "GET", "/api/v4/project_repository_storage_moves?per_page=3")).body.map((m: { id: number }) => m.id)) - 1;
    const status = await runMovesCli(["watch", "projects", "--since", String(since), "--from", "default"], connect({ FORGELINE_URL: iso.baseUrl, FORGELINE_TOKEN: iso.token }), (l) => lines.push(l), { intervalMs: 50, idlePolls: 2 });
    expect(status).toBe(1);
    expect(lines.at(-3)).toMatch(/^projects +\[#{30}\] 3\/3  (finished 2 · failed 1|failed 1 · finished 2)$/);
    expect(lines.slice(-2)).toEqual([`project move ${failedMove.id} failed: injected: the destination is gone`, "1 project move failed (see above); its repository stays on default."]);
  });
});
