/** Task `moveReplicate`: copy to every destination replica and verify the checksums. */
import { replicateRepository } from "../domain/steps.js";
import { moveTask } from "./task.js";

export const handler = moveTask("moveReplicate", replicateRepository);
