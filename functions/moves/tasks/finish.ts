/** Task `moveFinish`: `replicated → finished` for a batch's cleaned-up moves. */
import { finishMoves } from "../domain/completion.js";
import { moveTask } from "./task.js";

export const handler = moveTask("moveFinish", finishMoves);
