/** Task `moveStart`: `scheduled → started` (or nothing, when the move was handled already). */
import { startMove } from "../domain/steps.js";
import { moveTask } from "./task.js";

export const handler = moveTask("moveStart", startMove);
