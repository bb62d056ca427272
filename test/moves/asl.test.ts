/**
 * The storage-move state machine definition: valid Amazon States Language (asl-validator, with the
 * `${task:x}` placeholders replaced by Lambda ARNs as `stacks/jobs.ts` does), JSONPath only, and
 * wired to exactly the task workers of `functions/moves/routes.ts`.
 */
import { describe, it, expect } from "vitest";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { moveWorkers } from "../../functions/moves/routes.js";
import { PERMANENT_ERRORS } from "../../functions/moves/domain/errors.js";
import { STORAGE_MOVE_ASL } from "../../local/runtime.js";

type State = Record<string, any>;
const require = createRequire(import.meta.url);
const aslValidator = require("asl-validator") as (definition: unknown) => { isValid: boolean; errorsText: (sep?: string) => string };

const text = readFileSync(STORAGE_MOVE_ASL, "utf8");
const definition = JSON.parse(text) as State;
const withArns = (source: string) => JSON.parse(source.replace(/\$\{task:([A-Za-z0-9_-]+)\}/g, "arn:aws:lambda:us-east-1:123456789012:function:$1"));

/** Every state, nested ones (Map/Parallel) included, with its name. */
function allStates(def: State): Array<[string, State]> {
  return Object.entries(def.States as Record<string, State>).flatMap(([name, state]) => [
    [name, state] as [string, State],
    ...[state.ItemProcessor, state.Iterator, ...(state.Branches ?? [])].filter(Boolean).flatMap((nested: State) => allStates(nested)),
  ]);
}
const states = allStates(definition);
const tasks = states.filter(([, s]) => s.Type === "Task");

describe("storage-move.asl.json", () => {
  it("is valid ASL", () => {
    const result = aslValidator(withArns(text));
    expect(result.errorsText("\n")).toBe("");
    expect(result.isValid).toBe(true);
  });

  it("is checked by a validator that does catch mistakes", () => {
    const broken = withArns(text);
    broken.States.AfterMoves.Default = "NoSuchState";
    expect(aslValidator(broken).isValid).toBe(false);
  });

  it("uses JSONPath only: no JSONata, no variables", () => {
    // JSONata expressions are strings wrapped in {% … %}.
    expect(text).not.toContain("{%");
    for (const [name, state] of states) {
      for (const field of ["Assign", "Arguments", "Output", "QueryLanguage"]) expect(state, `${name}.${field}`).not.toHaveProperty(field);
    }
    expect(definition).not.toHaveProperty("QueryLanguage");
  });

  it("references exactly the task workers, and each of them", () => {
    const referenced = tasks.map(([, s]) => /^\$\{task:(.+)\}$/.exec(s.Resource)?.[1]);
    expect(new Set(referenced)).toEqual(new Set(moveWorkers.map((w) => w.name)));
    expect(moveWorkers.every((w) => w.kind === "task")).toBe(true);
  });

  it("retries transient failures with backoff on every task, never the permanent ones", () => {
    for (const [name, state] of tasks) {
      const [permanent, transient] = state.Retry as State[];
      expect(new Set(permanent!.ErrorEquals), name).toEqual(new Set(PERMANENT_ERRORS));
      expect(permanent!.MaxAttempts, name).toBe(0);
      expect(transient!.ErrorEquals, name).toContain("States.TaskFailed");
      expect(transient!.BackoffRate, name).toBeGreaterThan(1);
    }
  });

  it("sends every failure of a move step to the failure path", () => {
    const moveStates = definition.States.MoveAndScheduleNext.Branches[0].States.MoveRepositories.ItemProcessor.States as Record<string, State>;
    for (const [name, state] of Object.entries(moveStates)) {
      if (state.Type !== "Task" || name === "MarkFailed") continue;
      expect(state.Catch, name).toEqual([{ ErrorEquals: ["States.ALL"], ResultPath: "$.error", Next: "MarkFailed" }]);
    }
    expect(moveStates.WaitForWritesToDrain).toMatchObject({ Type: "Wait", Next: "CheckWrites" });
  });
});
