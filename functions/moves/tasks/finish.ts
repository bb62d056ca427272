/** Task `moveFinish`: `replicated → finished`, releasing the container. */
import { finishMove } from "../domain/completion.js";
import { moveTask } from "./task.js";

export const handler = moveTask("moveFinish", finishMove);
