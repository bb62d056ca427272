/**
 * `npm run restore -- <file> [old=new …] [--force]`: an archive into an empty instance, all or
 * nothing.
 *
 * 1. The whole archive is verified (`verify.ts`, `archive-checks.ts`), and where each repository
 *    lands after the mapping: if anything is off, nothing is written.
 * 2. The target must be empty (`emptiness.ts`) unless forced, or hold a restore of this same
 *    archive that was interrupted (`restore-marker.ts`), which this one then finishes.
 * 3. The archive is read again into a staging area on the storages (`staging.ts`,
 *    `restore-stage.ts`): every repository into every replica, each checksummed there, and the
 *    items. Until here the target is untouched; a failure or a crash leaves it as it was, and the
 *    staging area is removed (by this restore, the next one, or `npm start`'s start-up sweep).
 * 4. The staged archive is made live in one final step (`restore-commit.ts`): table items, then
 *    repositories renamed into place. A failure there is undone; a crash there is finished by
 *    running the same restore again, and until then `npm start` refuses the data folder.
 */
import { faultPoint } from "../platform/fault-injection.js";
import { placementProblem } from "./archive-checks.js";
import { inspectTarget } from "./emptiness.js";
import { BackupError, InterruptedRestoreError, NotEmptyError } from "./errors.js";
import { checkMapping, mapStorage, type StorageMapping } from "./mapping.js";
import type { Manifest } from "./manifest.js";
import { silentProgress, type ProgressSink } from "./progress.js";
import { makeLive } from "./restore-commit.js";
import { describeMarker } from "./restore-marker.js";
import { stageArchive } from "./restore-stage.js";
import { removeLeftoverStaging, StagingArea } from "./staging.js";
import { describeTable } from "./table-io.js";
import { verifyArchive } from "./verify.js";

export interface RestoreOptions {
  file: string;
  mapping?: StorageMapping;
  force?: boolean;
  progress?: ProgressSink;
}

export interface RestoreSummary {
  /** Items written, and repositories renamed into place (each on every replica of its storage). */
  items: number;
  repositories: number;
  /** Content bytes restored (repository files and table lines). */
  bytes: number;
  seconds: number;
  manifest: Manifest;
}

export async function restore(opts: RestoreOptions): Promise<RestoreSummary> {
  const started = Date.now();
  const progress = opts.progress ?? silentProgress;
  const mapping = opts.mapping ?? {};
  const manifest = await verifyArchive(opts.file, progress);

  checkMapping(mapping, Object.keys(manifest.source.storages), manifest.repositories.map((r) => r.storage));
  // Verification proved the paths distinct on the archive's storages; a mapping may merge storages.
  const misplaced = placementProblem(manifest.repositories, (s) => mapStorage(mapping, s));
  if (misplaced) throw new BackupError(`with the storage mapping given, ${misplaced}. Nothing was restored`);
  await describeTable();
  const target = await inspectTarget();
  const finishing = target.interrupted?.archive === manifest.manifest_sha256;
  if (target.interrupted && !finishing && !opts.force) throw new InterruptedRestoreError(describeMarker(target.interrupted), target.interrupted.file);
  if (!target.interrupted && target.foundCount > 0 && !opts.force) throw new NotEmptyError(target.found);

  await removeLeftoverStaging();
  const staging = await StagingArea.open();
  try {
    const staged = await stageArchive(opts.file, manifest, mapping, staging, progress);
    await faultPoint("restoreStaged", "after", { repositories: staged.repositories.length });
    const marker = { archive: manifest.manifest_sha256, file: opts.file, backupCreatedAt: manifest.created_at, startedAt: new Date().toISOString() };
    await makeLive({ staging, staged, replaced: target.repositories, marker, previousMarker: target.interrupted }, progress);
    return { items: staged.items, repositories: staged.repositories.length, bytes: manifest.counts.bytes, seconds: (Date.now() - started) / 1000, manifest };
  } finally {
    await staging.remove();
  }
}
