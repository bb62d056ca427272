/**
 * Where a move is in the state machine (`domain/move-path.ts`), from its record alone (no execution
 * yet, or events that could not be read) and from its execution's events when they are shared with
 * other moves: only the states that carried this move count, a move's own error marks the state it
 * failed in, and a whole step's failure marks the step before the failure path.
 */
import { describe, it, expect } from "vitest";
import { readFileSync } from "node:fs";
import { BATCH_MAP, BATCH_STATES, BULK_WAY, SINGLE_END, SINGLE_WAY, STEPS, movePath, type ExecutionEvent } from "../../functions/moves/domain/move-path.js";
import { allStates, innerMachines, type AslMachine } from "../../functions/moves/domain/asl-graph.js";
import { STORAGE_MOVE_ASL } from "../../local/runtime.js";
import type { MoveRecord } from "../../functions/moves/domain/records.js";

const at = "2026-05-01T12:00:00.000Z";
const record = (over: Partial<MoveRecord>): MoveRecord => ({
  id: 7, kind: "project", containerId: 3, state: "scheduled", sourceStorage: "default", destinationStorage: "cluster", relativePath: "@hashed/x",
  errorMessage: null, createdAt: at, updatedAt: at, history: [{ step: "scheduled", at }], ...over,
});
const step = (name: string) => ({ step: name, at });
const batch = (ids: number[], extra: Record<string, unknown> = {}) => JSON.stringify({ moves: ids.map((moveId) => ({ moveId, kind: "project", containerId: moveId * 10 })), ...extra });
const entered = (type: string, name: string, input: string): ExecutionEvent => ({ type, stateEnteredEventDetails: { name, input } });
const exited = (type: string, name: string, output: string): ExecutionEvent => ({ type, stateExitedEventDetails: { name, output } });

describe("the states it names", () => {
  const definition = JSON.parse(readFileSync(STORAGE_MOVE_ASL, "utf8")) as AslMachine;
  it("are states of storage-move.asl.json, and the batch's are exactly those of its Map", () => {
    const names = new Set(allStates(definition).map((s) => s.name));
    const named = [BATCH_MAP, ...BATCH_STATES, ...BULK_WAY, ...SINGLE_WAY, ...SINGLE_END, ...Object.values(STEPS).flat(), "Route", "Cleanup", "WaitForWritesToDrain", "Replicate", "MarkFailed"];
    expect(named.filter((n) => !names.has(n))).toEqual([]);
    const map = allStates(definition).find((s) => s.name === BATCH_MAP)!;
    expect(map.type).toBe("Map");
    const find = (m: AslMachine): AslMachine | undefined => {
      for (const [name, state] of Object.entries(m.States)) {
        if (name === BATCH_MAP) return innerMachines(state)[0];
        for (const inner of innerMachines(state)) {
          const found = find(inner);
          if (found) return found;
        }
      }
      return undefined;
    };
    expect([...BATCH_STATES].sort()).toEqual(Object.keys(find(definition)!.States).sort());
  });
});

describe("a move's path, from its record", () => {
  it("scheduled by a bulk move: waiting in the Map", () => {
    const path = movePath(record({ bulkExecution: "bulk-project-from-default-x" }));
    expect(path).toMatchObject({ current: "MoveRepositories", failed: null, from: "record" });
    expect(path.visited).toEqual(expect.arrayContaining(["Route", "FirstPage", "ScheduleBatch", "NextPage", "MoveRepositories"]));
    expect(path.visited).not.toContain("SingleMove");
  });

  it("started and waiting for writes, then switched, then failed in its cleanup", () => {
    const waiting = movePath(record({ state: "started", history: [step("scheduled"), step("started"), step("waiting for writes to drain")] }));
    expect(waiting).toMatchObject({ current: "WaitForWritesToDrain" });
    expect(waiting.visited).toEqual(expect.arrayContaining(["SingleMove", "StartMoves", "WritesDrained", "CheckWrites"]));
    const switched = movePath(record({ state: "replicated", history: [step("scheduled"), step("started"), step("copied and verified"), step("replicated")] }));
    expect(switched).toMatchObject({ current: "Cleanup" });
    expect(switched.visited).toEqual(expect.arrayContaining(["Replicate", "SwitchStorage"]));
    const failed = movePath(record({ state: "cleanup failed", errorMessage: "disk gone", history: [step("scheduled"), step("started"), step("replicated"), step("cleanup failed")] }));
    expect(failed).toMatchObject({ current: null, failed: { state: "MarkFailed", cause: "disk gone" } });
    expect(failed.visited).toEqual(expect.arrayContaining(["MarkFailed", "AfterMoves", "MoveFailed"]));
  });
});

describe("a move's path, from a shared execution's events", () => {
  it("counts only the states that carried this move", () => {
    const events = [
      { type: "ExecutionStarted" },
      entered("TaskStateEntered", "StartMoves", batch([5, 6])),
      entered("TaskStateEntered", "StartMoves", batch([7, 8])),
      entered("ChoiceStateEntered", "WritesDrained", batch([7, 8])),
      entered("TaskStateEntered", "Replicate", batch([7, 8])),
      entered("TaskStateEntered", "SwitchStorage", batch([5, 6])),
    ];
    const path = movePath(record({ state: "started", bulkExecution: "bulk-x", history: [step("scheduled"), step("started")] }), events);
    expect(path).toMatchObject({ current: "Replicate", from: "execution", failed: null });
    expect(path.visited).not.toContain("SwitchStorage");
  });

  it("a move's own error: the state whose output carries it", () => {
    const error = { Error: "StorageIOError", Cause: JSON.stringify({ errorMessage: "no space" }) };
    const events = [
      entered("TaskStateEntered", "Replicate", batch([7, 8])),
      exited("TaskStateExited", "Replicate", JSON.stringify({ moves: [{ moveId: 7, kind: "project", error }, { moveId: 8, kind: "project" }] })),
      entered("TaskStateEntered", "SwitchStorage", JSON.stringify({ moves: [{ moveId: 7, kind: "project", error }, { moveId: 8, kind: "project" }] })),
      entered("TaskStateEntered", "MarkFailed", JSON.stringify({ moves: [{ moveId: 7, kind: "project", error }] })),
    ];
    const path = movePath(record({ state: "failed", errorMessage: "no space", bulkExecution: "bulk-x" }), events);
    expect(path.failed).toEqual({ state: "Replicate", cause: "no space" });
    // The same move id of another type is another move.
    const other = movePath(record({ kind: "snippet", state: "failed", errorMessage: "x", bulkExecution: "bulk-x" }), events);
    expect(other.from).toBe("record");
  });

  it("a whole step's failure after its retries: the step before the failure path", () => {
    const events = [
      entered("TaskStateEntered", "StartMoves", batch([7])),
      entered("TaskStateEntered", "Cleanup", batch([7])),
      { type: "TaskFailed" },
      entered("TaskStateEntered", "MarkFailed", batch([7], { error: { Error: "States.Timeout", Cause: "timed out" } })),
    ];
    const path = movePath(record({ state: "cleanup failed", errorMessage: "timed out", bulkExecution: "bulk-x" }), events);
    expect(path.failed).toEqual({ state: "Cleanup", cause: "timed out" });
    expect(path.visited).toEqual(expect.arrayContaining(["StartMoves", "Cleanup", "MarkFailed"]));
  });
});
