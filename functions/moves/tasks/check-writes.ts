/** Task `moveCheckWrites`: are writes still in flight? Fails once the drain deadline passed. */
import { checkWrites } from "../domain/steps.js";
import { moveTask } from "./task.js";

export const handler = moveTask("moveCheckWrites", checkWrites);
