/** Task `moveFail`: the failure path — each failed move ends `failed` (writable on the source) or `cleanup failed`. */
import { failMoves } from "../domain/completion.js";
import { moveTask } from "./task.js";

export const handler = moveTask("moveFail", failMoves);
