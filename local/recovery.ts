/**
 * What the local runtime does when it starts, before it serves a request or resumes an execution,
 * so that a predecessor killed on the same data folder (kill -9, a crash, power loss) costs nothing:
 * - it takes the next incarnation number of the data folder: write leases and hook delivery locks
 *   taken by an earlier incarnation belong to a process that is gone, and count as released from now
 *   on (`functions/platform/leases.ts`), so the first write after a restart succeeds at once, a
 *   move's drain does not wait for them, and a delivery the predecessor was sending is sent again;
 * - it sweeps the temporary folders the predecessor left on every storage and replica (half-made
 *   copies, copies renamed for deletion, a restore's staging area) and what its killed pushes left
 *   inside repositories (git's incoming objects): nothing of this instance runs yet, so none is in use;
 * - it refuses a folder that a restore left half-made (killed while it made an archive live,
 *   `functions/backup/restore-marker.ts`): serving it would serve items whose repositories are
 *   missing. Only the restore command, which finishes that restore, opens such a folder.
 */
import { updateItem } from "../functions/platform/db/table.js";
import { log } from "../functions/platform/log.js";
import { sweepStrays } from "../functions/inventory/domain/strays.js";
import { INCARNATION_KEY } from "../functions/platform/leases.js";
import { describeMarker, interruptedRestore } from "../functions/backup/restore-marker.js";
import { OperatorError } from "./operator-errors.js";

export async function recoverFromPredecessors(): Promise<void> {
  const item = await updateItem({ ...INCARNATION_KEY, update: "ADD incarnation :one", values: { ":one": 1 } });
  process.env.FORGELINE_RUNTIME_INCARNATION = String(item?.incarnation);
  const { removed, gitLeftoversRemoved } = await sweepStrays({ minAgeMs: 0 });
  if (removed || gitLeftoversRemoved) log.info("removed the temporary folders and git leftovers a stopped runtime left on the storages", { removed, gitLeftoversRemoved });
}

export async function refuseInterruptedRestore(dataDir: string): Promise<void> {
  const marker = await interruptedRestore();
  if (marker) throw new OperatorError(`the data folder ${dataDir} holds an incomplete instance: ${describeMarker(marker)}`, `Run it again to finish it: npm run restore -- ${marker.file}`);
}
