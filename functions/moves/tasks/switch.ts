/** Task `moveSwitch`: verify again, then point the container at the destination (`replicated`). */
import { switchToDestination } from "../domain/steps.js";
import { moveTask } from "./task.js";

export const handler = moveTask("moveSwitch", switchToDestination);
