/** Task `moveFail`: the Catch path — `failed` (writable on the source) or `cleanup failed`. */
import { failMove } from "../domain/completion.js";
import { moveTask } from "./task.js";

export const handler = moveTask("moveFail", failMove);
