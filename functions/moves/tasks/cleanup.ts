/** Task `moveCleanup`: remove the source copies of a batch's switched repositories. */
import { cleanupSources } from "../domain/completion.js";
import { moveTask } from "./task.js";

export const handler = moveTask("moveCleanup", cleanupSources);
