/** Task `moveCleanup`: remove the source copy of a switched repository. */
import { cleanupSource } from "../domain/completion.js";
import { moveTask } from "./task.js";

export const handler = moveTask("moveCleanup", cleanupSource);
