/** Task `moveReplicate`: copy each repository of a batch to its destination and verify it. */
import { replicateRepositories } from "../domain/steps.js";
import { moveTask } from "./task.js";

export const handler = moveTask("moveReplicate", replicateRepositories);
