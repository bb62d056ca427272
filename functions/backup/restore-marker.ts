/**
 * The one item a restore keeps in the table while it makes an archive live (`restore-commit.ts`):
 * from the first table write until the last repository is in place, the instance is neither the
 * one before nor the archive's. While the item exists, `npm start` (and the other commands) refuse
 * the data folder, and running the same restore again finishes the job, whatever was written.
 * It names the archive by its manifest's own hash, so only that archive (or `--force`) may finish it.
 */
import { INCARNATION_KEY } from "../platform/leases.js";
import { batchWrite, getRawItem, str, type RawItem, type RawKey } from "./table-io.js";

export const RESTORE_MARKER_KEY = { pk: "RESTORE", sk: "COMMIT" } as const;

export interface RestoreMarker {
  /** `manifest_sha256` of the archive being made live. */
  archive: string;
  /** The archive's file name, as the operator gave it. */
  file: string;
  /** When the backup was taken (the manifest's `created_at`). */
  backupCreatedAt: string;
  startedAt: string;
}

/**
 * Items of the installation rather than the instance: the local runtime's incarnation counter and
 * this marker. Never archived, never replaced by a restore; an archive holding one is refused.
 */
export const isInstallationKey = (key: RawKey) => key.pk === INCARNATION_KEY.pk || (key.pk === RESTORE_MARKER_KEY.pk && key.sk === RESTORE_MARKER_KEY.sk);

export function markerOf(item: RawItem): RestoreMarker {
  return { archive: str(item, "archive") ?? "", file: str(item, "file") ?? "", backupCreatedAt: str(item, "backupCreatedAt") ?? "", startedAt: str(item, "startedAt") ?? "" };
}

export async function interruptedRestore(): Promise<RestoreMarker | undefined> {
  const item = await getRawItem(RESTORE_MARKER_KEY);
  return item && markerOf(item);
}

/** Written with BatchWriteItem, so a restore needs no table permission beyond the ones it had. */
export async function setMarker(marker: RestoreMarker): Promise<void> {
  const item: RawItem = { pk: { S: RESTORE_MARKER_KEY.pk }, sk: { S: RESTORE_MARKER_KEY.sk } };
  for (const [name, value] of Object.entries(marker)) item[name] = { S: value };
  await batchWrite([{ put: item }]);
}

export async function clearMarker(): Promise<void> {
  await batchWrite([{ delete: RESTORE_MARKER_KEY }]);
}

export const describeMarker = (m: RestoreMarker) => `a restore of ${m.file} (a backup taken ${m.backupCreatedAt}), begun ${m.startedAt}, was interrupted`;
