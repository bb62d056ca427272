/** Task `moveSummarise`: a bulk execution's outcome — scheduled, finished, failed and skipped moves. */
import { summariseBulk } from "../domain/bulk-summary.js";
import { moveTask } from "./task.js";

export const handler = moveTask("moveSummarise", summariseBulk);
