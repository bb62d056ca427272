/** Task `moveScheduleBatch`: one page of a bulk move (schedules the moves the Map then runs). */
import { scheduleBatch, type BatchState } from "../domain/bulk.js";
import { moveTask } from "./task.js";

export const handler = moveTask("moveScheduleBatch", (input: { state: BatchState; executionName: string }) =>
  scheduleBatch(input.state, input.executionName),
);
