/**
 * The storage move's fault-injection seam (`platform/fault-injection.ts`): every task step calls it
 * before and after its work (`tasks/task.ts`), the copy once written, the cleanup before it deletes.
 */
export { injectFaults as injectMoveFaults, faultPoint, type FaultInjector, type FaultPhase } from "../../platform/fault-injection.js";
