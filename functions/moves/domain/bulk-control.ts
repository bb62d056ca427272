/**
 * The operator's handle on a storage-wide move (one item per kind and source storage, see `keys.ts`):
 * cancel it, or change how many of its moves run at once while it runs. Not GitLab's: GitLab has no
 * way to stop a bulk move once scheduled.
 *
 * The bulk execution reads the item at every page (`bulk.ts`) and its batches read it again before
 * they start their moves (`steps.ts`), so:
 * - a cancel schedules no further page, and moves still `scheduled` end `failed` with
 *   `Canceled by an administrator`, writable on their source (the cancel fails those it finds at
 *   once; a batch about to start fails any it scheduled meanwhile). A move already `started` goes on
 *   and finishes or fails as it would have.
 * - a concurrency change applies from the next page the execution schedules.
 * A cancel applies to the bulk moves scheduled before it (by time), never to a later one. Once the
 * latest bulk move has ended (`endedAt`, written by its summary step), both answer 404.
 */
import { getItem, getItems, updateItem, isConditionFailure } from "../../platform/db/table.js";
import { notFound } from "../../platform/http/errors.js";
import { bulkControlKey, type MoveKind } from "../keys.js";
import { movesCreatedSince } from "./records.js";
import { markAllCanceled } from "./transitions.js";

export const CANCELED_MESSAGE = "Canceled by an administrator";

/** Map iterations (batches) a bulk execution runs at once unless told otherwise. */
const DEFAULT_PARALLEL_BATCHES = 5;
export const MAX_CONCURRENCY = 500;

/**
 * Moves per batch in a bulk execution (`FORGELINE_MOVE_BATCH_SIZE`, 1–25, default 10). A batch's
 * copies share one task invocation (15 minutes at most on Lambda): use 1 for very large repositories.
 */
export const batchSize = () => Math.min(25, Math.max(1, Number(process.env.FORGELINE_MOVE_BATCH_SIZE) || 10));

export const defaultConcurrency = () => batchSize() * DEFAULT_PARALLEL_BATCHES;

export interface BulkControl {
  kind: MoveKind;
  source: string;
  /** When the latest bulk move of this kind off this storage was scheduled (ISO 8601). */
  scheduledAt: string;
  canceledAt?: string;
  /** Moves that may run at once; unset: `defaultConcurrency()`. */
  concurrency?: number;
  /** When that bulk move's execution summarised its moves: it runs no more (ISO 8601). */
  endedAt?: string;
  /** What it found on its source when scheduled: repositories of the kind and their recorded bytes. */
  totalRepositories?: number;
  totalBytes?: number;
  /** Its destination; unset, each repository went to a storage picked by weight. */
  destination?: string;
  /** Its execution. */
  executionArn?: string;
  /** Repositories its pages could not schedule so far (read-only, busy, no destination). */
  skipped?: number;
  /** Bytes its moves copied so far (each replication step adds its batch's). */
  copiedBytes?: number;
  /** Its summary's counts, once it ended. */
  outcome?: { scheduled: number; finished: number; failed: number; skipped: number; canceled: number };
}

/** The console's view of the latest bulk moves (`console-moves.ts`) reads these items; the execution only some of it. */
export const readBulkControls = (refs: Array<{ kind: MoveKind; source: string }>) => getItems<BulkControl>(refs.map((r) => bulkControlKey(r.kind, r.source)));

/** What a bulk execution needs to find its control item again. */
export interface BulkRef {
  kind: MoveKind;
  source: string;
  scheduledAt?: string;
}

export const readBulkControl = (kind: MoveKind, source: string) => {
  const key = bulkControlKey(kind, source);
  return getItem<BulkControl>(key.pk, key.sk);
};

/** Canceled after the bulk move was scheduled (a bulk without a time predates cancels: any cancel counts). */
export const isCanceled = (control: BulkControl | undefined, scheduledAt: string | undefined) =>
  !!control?.canceledAt && (!scheduledAt || control.canceledAt >= scheduledAt);

export async function bulkCanceled(ref: BulkRef): Promise<boolean> {
  return isCanceled(await readBulkControl(ref.kind, ref.source), ref.scheduledAt);
}

/**
 * A new bulk move starts at the default concurrency, with what it found on its source (`found`).
 * An earlier cancel stays recorded: it is older than the new bulk move, so it stops only the ones
 * scheduled before it, which must not resume.
 */
export async function recordBulkScheduled(kind: MoveKind, source: string, scheduledAt: string, found?: { repositories: number; bytes: number; destination?: string }): Promise<void> {
  const key = bulkControlKey(kind, source);
  const totals = found ? ", totalRepositories = :n, totalBytes = :b" + (found.destination ? ", destination = :d" : "") : "";
  await updateItem({
    ...key,
    update: `SET kind = :kind, #source = :source, scheduledAt = :at, #type = :type${totals} REMOVE concurrency, endedAt, skipped, copiedBytes, executionArn, outcome${found?.destination ? "" : ", destination"}`,
    names: { "#source": "source", "#type": "type" },
    values: { ":kind": kind, ":source": source, ":at": scheduledAt, ":type": "bulk-control", ...(found ? { ":n": found.repositories, ":b": found.bytes, ...(found.destination ? { ":d": found.destination } : {}) } : {}) },
  });
}

/** A change to the bulk move scheduled at `ref.scheduledAt`, only while it is still the latest of its kind off its source. */
export async function updateBulk(ref: BulkRef, update: string, values: Record<string, unknown>): Promise<void> {
  if (!ref.scheduledAt) return;
  try {
    await updateItem({ ...bulkControlKey(ref.kind, ref.source), update, condition: "scheduledAt = :at", values: { ...values, ":at": ref.scheduledAt } });
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
  }
}

/**
 * The bulk execution scheduled at `scheduledAt` has ended (its summary step).
 * Recorded only while it is still the latest bulk move of its kind off its source: a newer one keeps running.
 */
export const recordBulkEnded = (kind: MoveKind, source: string, scheduledAt: string) => updateBulk({ kind, source, scheduledAt }, "SET endedAt = :now", { ":now": new Date().toISOString() });

/**
 * How one page's moves run: in batches of at most `size` moves, `parallel` batches at once, so no
 * more than `concurrency` moves are under way (at least one batch of one).
 */
export function pageShape(control: BulkControl | undefined): { size: number; parallel: number } {
  const concurrency = control?.concurrency ?? defaultConcurrency();
  const size = Math.max(1, Math.min(batchSize(), concurrency));
  return { size, parallel: Math.max(1, Math.floor(concurrency / size)) };
}

const noBulk = (kind: MoveKind, source: string) => notFound(`${kind} repository storage move off ${source}`);
/** Cancel and concurrency act on a bulk move that runs; one that has ended has nothing left to change. */
const ended = (kind: MoveKind, source: string) => notFound(`running ${kind} repository storage move off ${source}`);

/** Cancels the bulk moves of `kind` off `source`; returns how many scheduled moves it failed at once. */
export async function cancelBulk(kind: MoveKind, source: string): Promise<{ canceled: number; control: BulkControl }> {
  const control = await readBulkControl(kind, source);
  if (!control) throw noBulk(kind, source);
  if (control.endedAt) throw ended(kind, source);
  const canceledAt = new Date().toISOString();
  await updateItem({ ...bulkControlKey(kind, source), update: "SET canceledAt = :at", values: { ":at": canceledAt } });
  const waiting = (await movesCreatedSince(kind, control.scheduledAt)).filter((m) => m.bulkExecution && m.sourceStorage === source && m.state === "scheduled");
  const done = await markAllCanceled(waiting, CANCELED_MESSAGE);
  return { canceled: done.filter(Boolean).length, control: { ...control, canceledAt } };
}

export async function setBulkConcurrency(kind: MoveKind, source: string, concurrency: number): Promise<BulkControl> {
  try {
    const out = await updateItem({
      ...bulkControlKey(kind, source),
      update: "SET concurrency = :n",
      condition: "attribute_exists(pk) AND attribute_not_exists(endedAt)",
      values: { ":n": concurrency },
    });
    return out as unknown as BulkControl;
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    throw (await readBulkControl(kind, source)) ? ended(kind, source) : noBulk(kind, source);
  }
}
