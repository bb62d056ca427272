/**
 * Making a staged archive live: the only step of a restore that changes the target, taken once
 * everything is verified and staged (`restore-stage.ts`). In order:
 * 1. the target's items are saved into the staging area (to undo with);
 * 2. the marker (`restore-marker.ts`) is written: from here on the instance is half-made until the end;
 * 3. the archive's items are put, then the target's other items deleted;
 * 4. the target's repositories (a forced or interrupted restore's) are set aside into the staging
 *    area, and each staged copy is renamed into place;
 * 5. the marker is removed.
 * The table goes first because its writes are the ones that can fail (throttling, a full disk),
 * and they are undone while every repository is still where it was; a rename within one file
 * system does not fail that way. A failure is undone step by step in reverse — the renames, then
 * the table from the saved items, then the marker — so the target is as it was before. A crash
 * (kill -9, power loss) in 3–5 leaves the marker, and running the same restore again finishes it.
 */
import { createReadStream } from "node:fs";
import { mkdir, open, rename } from "node:fs/promises";
import { dirname } from "node:path";
import { createInterface } from "node:readline";
import { pathExists } from "../hosting/domain/git/fs-util.js";
import { UnknownStorageError } from "../hosting/domain/git/errors.js";
import { replicaPaths } from "../hosting/domain/git/storage.js";
import { faultPoint } from "../platform/fault-injection.js";
import { BackupError } from "./errors.js";
import type { ProgressSink } from "./progress.js";
import { clearMarker, isInstallationKey, setMarker, type RestoreMarker } from "./restore-marker.js";
import type { StagedArchive } from "./restore-stage.js";
import type { StagingArea } from "./staging.js";
import { batchWrite, decodeItem, encodeItem, keyId, keyOf, scanTable, type RawItem, type RawKey } from "./table-io.js";

/** Items put between two fault points (and progress updates). */
const PUT_CHUNK = 500;

export interface LivePlan {
  staging: StagingArea;
  staged: StagedArchive;
  /** The target's repositories, set aside and removed with the staging area. */
  replaced: Array<{ storage: string; relativePath: string }>;
  marker: RestoreMarker;
  /** The marker an interrupted restore left, put back if this one is undone. */
  previousMarker: RestoreMarker | undefined;
}

async function* readItems(file: string): AsyncGenerator<RawItem> {
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) if (line) yield decodeItem(line);
}

async function keysOf(file: string): Promise<Map<string, RawKey>> {
  const keys = new Map<string, RawKey>();
  for await (const item of readItems(file)) keys.set(keyId(keyOf(item)), keyOf(item));
  return keys;
}

/** The target's items as they are now, into `file` (the installation's own items stay where they are). */
async function saveTable(file: string): Promise<void> {
  const out = await open(file, "wx", 0o600);
  // The scan's segments run in parallel; their pages are written one after another, whole.
  let written: Promise<void> = Promise.resolve();
  try {
    await scanTable((page) => {
      const lines = page.filter((item) => !isInstallationKey(keyOf(item))).map((item) => encodeItem(item) + "\n");
      written = written.then(() => (lines.length ? out.appendFile(lines.join("")) : undefined));
      return written;
    });
  } finally {
    await written.catch(() => undefined);
    await out.close();
  }
}

/** Puts every item of `file`, a chunk at a time; deletes the `stale` keys the file does not hold. */
async function replaceItems(file: string, stale: Map<string, RawKey>, onChunk: (written: number) => Promise<void> = async () => {}): Promise<void> {
  let chunk: RawItem[] = [];
  let written = 0;
  const flush = async () => {
    await batchWrite(chunk.map((put) => ({ put })));
    written += chunk.length;
    chunk = [];
    await onChunk(written);
  };
  const kept = new Set<string>();
  for await (const item of readItems(file)) {
    kept.add(keyId(keyOf(item)));
    chunk.push(item);
    if (chunk.length >= PUT_CHUNK) await flush();
  }
  if (chunk.length) await flush();
  await batchWrite([...stale].filter(([id]) => !kept.has(id)).map(([, key]) => ({ delete: key })));
}

/** Every copy of a repository on its storage; none when the configuration no longer has that storage. */
function copiesOf(storage: string, relativePath: string): string[] {
  try {
    return replicaPaths(storage, relativePath);
  } catch (err) {
    if (err instanceof UnknownStorageError) return [];
    throw err;
  }
}

export async function makeLive(plan: LivePlan, progress: ProgressSink): Promise<void> {
  const { staging, staged } = plan;
  const previousFile = staging.file("previous.jsonl");
  await saveTable(previousFile);
  const [previousKeys, archiveKeys] = [await keysOf(previousFile), await keysOf(staged.itemsFile)];
  const undo: Array<() => Promise<void>> = [];
  const moveBack = (from: string, to: string) => undo.push(() => rename(from, to));
  try {
    await setMarker(plan.marker);
    undo.push(async () => {
      await replaceItems(previousFile, archiveKeys);
      await (plan.previousMarker ? setMarker(plan.previousMarker) : clearMarker());
    });
    progress.phase("Writing table items", staged.items);
    await replaceItems(staged.itemsFile, previousKeys, async (written) => {
      progress.update(written);
      await faultPoint("restoreTable", "copied", { written });
    });
    for (const repo of plan.replaced) {
      for (const path of copiesOf(repo.storage, repo.relativePath)) {
        if (await pathExists(path)) moveBack(await staging.setAside(path), path);
      }
    }
    for (const [n, repo] of staged.repositories.entries()) {
      const targets = replicaPaths(repo.storage, repo.record.relative_path);
      for (const [i, target] of targets.entries()) {
        // Whatever no item points at may lie in the way (a copy left by hand): it goes aside too.
        if (await pathExists(target)) moveBack(await staging.setAside(target), target);
        await mkdir(dirname(target), { recursive: true });
        await rename(repo.temps[i]!, target);
        moveBack(target, repo.temps[i]!);
      }
      await faultPoint("restoreRename", "copied", { renamed: n + 1 });
    }
    await clearMarker();
  } catch (err) {
    try {
      for (const step of undo.reverse()) await step();
    } catch (undoErr) {
      throw new BackupError(
        `The restore failed while making the archive live (${(err as Error).message}), and undoing it failed too (${(undoErr as Error).message}): ` +
          "the instance is incomplete, and refused by npm start until the same restore is run again to finish it",
      );
    }
    throw new BackupError(`The restore failed while making the archive live (${(err as Error).message}); that was undone, and the instance is as it was before. Nothing was restored`);
  }
  progress.end();
}
