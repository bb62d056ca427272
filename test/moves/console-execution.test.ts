/**
 * The console's execution view of one move (`domain/console-execution.ts`) against a scripted
 * `GetExecutionHistory`: a move that only shares its storage-wide parent's execution has its
 * history left unread, and a long history is read newest first, so a late batch's events are
 * within the cut.
 */
import { describe, it, expect, vi, beforeEach } from "vitest";
import type { GetExecutionHistoryCommandInput, HistoryEvent } from "@aws-sdk/client-sfn";

const asked: GetExecutionHistoryCommandInput[] = [];
let history: HistoryEvent[] = [];

// AWS's paging: `maxResults` a page, an opaque `nextToken`, `reverseOrder` newest first.
vi.mock("../../functions/platform/aws-sfn.js", () => ({
  sfnClient: () => ({
    send: async (command: { input: GetExecutionHistoryCommandInput }) => {
      const input = command.input;
      asked.push(input);
      const ordered = input.reverseOrder ? [...history].reverse() : history;
      const from = Number(input.nextToken ?? 0);
      const to = from + (input.maxResults ?? 100);
      return { events: ordered.slice(from, to), nextToken: to < ordered.length ? String(to) : undefined };
    },
  }),
}));

const { moveExecution, MAX_EVENTS } = await import("../../functions/moves/domain/console-execution.js");
import type { MoveRecord } from "../../functions/moves/domain/records.js";

const ARN = "arn:aws:states:us-east-1:000000000000:execution:StorageMoveMachine:bulk-project-from-default-1";
const at = new Date("2026-01-01T00:00:00Z");
const move = (over: Partial<MoveRecord>): MoveRecord => ({
  id: 7,
  kind: "project",
  containerId: 70,
  state: "started",
  sourceStorage: "default",
  destinationStorage: "cluster",
  relativePath: "@hashed/aa/bb/x.git",
  errorMessage: null,
  createdAt: at.toISOString(),
  updatedAt: at.toISOString(),
  bulkExecution: "bulk-project-from-default-1",
  history: [{ step: "scheduled", at: at.toISOString() }, { step: "started", at: at.toISOString() }],
  ...over,
});
const entered = (id: number, name: string, moveId: number): HistoryEvent => ({
  id,
  timestamp: at,
  type: "TaskStateEntered",
  stateEnteredEventDetails: { name, input: JSON.stringify({ moves: [{ moveId, kind: "project" }] }) },
});

beforeEach(() => {
  asked.length = 0;
  history = [];
});

describe("one move's execution, for the console", () => {
  it("does not read the history of a storage-wide execution the move has no part in yet", async () => {
    history = [{ id: 1, timestamp: at, type: "ExecutionStarted" }, entered(2, "Replicate", 8)];
    const x = await moveExecution(move({ state: "scheduled", history: [{ step: "scheduled", at: at.toISOString() }] }));
    expect(asked).toEqual([]);
    expect(x).toMatchObject({ shared: true, events: [], error: null, path: { from: "record", current: "MoveRepositories" } });
    expect(x.arn).toMatch(/:execution:StorageMoveMachine:bulk-project-from-default-1$/);
  });

  it("reads a long history newest first: a late batch's events are within the cut, listed oldest first", async () => {
    history = [{ id: 1, timestamp: at, type: "ExecutionStarted" }];
    while (history.length < MAX_EVENTS + 500) history.push(entered(history.length + 1, "Replicate", 8));
    const late = history.length + 1;
    history.push(entered(late, "StartMoves", 7), entered(late + 1, "WritesDrained", 7), entered(late + 2, "Replicate", 7));
    const x = await moveExecution(move({ executionArn: ARN }));
    expect(asked.every((a) => a.reverseOrder === true)).toBe(true);
    expect(x.complete).toBe(false);
    expect(x.events.map((e) => [e.id, e.state])).toEqual([[late, "StartMoves"], [late + 1, "WritesDrained"], [late + 2, "Replicate"]]);
    expect(x.path).toMatchObject({ from: "execution", current: "Replicate", failed: null });
  });

  it("reads the whole history of the move's own execution, oldest first", async () => {
    history = [{ id: 1, timestamp: at, type: "ExecutionStarted" }, entered(2, "Route", 7), entered(3, "Replicate", 7)];
    const x = await moveExecution(move({ bulkExecution: undefined, executionArn: ARN.replace("bulk-project-from-default-1", "project-7") }));
    expect(x).toMatchObject({ shared: false, complete: true, error: null, path: { from: "execution", current: "Replicate" } });
    expect(x.events.map((e) => e.id)).toEqual([1, 2, 3]);
  });
});
