/** Task `moveStart`: `scheduled → started` for a batch (moves handled already are left alone). */
import { startMoves } from "../domain/steps.js";
import { moveTask } from "./task.js";

export const handler = moveTask("moveStart", startMoves);
