/**
 * Bulk scheduling ("move every project on storage X"). The POST only validates and starts a bulk
 * execution, so it answers at once however many repositories there are. The execution pages through
 * the source storage's index (a Query, never a Scan): each page schedules up to `pageSize` moves and
 * runs them, in batches (`batch.ts`) with the state machine's bounded concurrency, before the next
 * page is read, so repositories stay writable until their turn comes. An operator can cancel it or
 * change its concurrency while it runs (`bulk-control.ts`).
 */
import { docQuery } from "../../platform/db/document.js";
import { resources } from "../../platform/resources.js";
import { GSI2, nextIds } from "../../platform/db/table.js";
import { paramError } from "../../platform/http/errors.js";
import { log } from "../../platform/log.js";
import { mapConcurrently } from "../../platform/concurrency.js";
import { pickStorage, pickWeighted, storageWeights } from "../../identity/domain/settings.js";
import { storageIndexPk } from "../../hosting/domain/keys.js";
import { moveSequence, type MoveKind } from "../keys.js";
import { containersOf, displayPath, type AnyContainer } from "./containers.js";
import { drainPolicy, startBulkExecution, type BulkInput, type DrainPolicy, type MoveBatchInput, type MoveInput } from "./execution.js";
import { assertBulkStorages } from "./policy.js";
import { isCanceled, pageShape, readBulkControl, recordBulkScheduled, updateBulk } from "./bulk-control.js";
import { findMove, isTerminal, movesCreatedSince, type MoveRecord } from "./records.js";
import { createScheduledMove, isSchedulable, newMoveRecord, NotSchedulableError, schedulingItems } from "./schedule.js";
import { transactEach } from "./transitions.js";
import { assertRoomForStorage } from "./room.js";
import { kindBytes } from "./move-plan.js";

/** Containers looked at again at once within a page (held already, or changed since read). */
const SCHEDULE_CONCURRENCY = 8;

const NO_DESTINATION = "has no destination: no other storage has a weight above 0";

const pageSize = () => Math.min(500, Math.max(1, Number(process.env.FORGELINE_MOVE_BULK_PAGE_SIZE) || 50));

export async function scheduleBulkMoves(kind: MoveKind, source: string, destination?: string, opts: { drain?: Partial<DrainPolicy> } = {}) {
  assertBulkStorages(source, destination);
  // GitLab picks a destination per repository when none is given; refuse now if there is none to pick.
  if (destination === undefined && !(await pickStorage([source]))) {
    throw paramError("destination_storage_name is missing and no other storage has a weight above 0 in repository_storages_weighted");
  }
  // With a destination named, everything on the source must fit there (a weighted pick spreads it).
  const found = await kindBytes(kind, source);
  if (destination !== undefined) await assertRoomForStorage(found.bytes, destination);
  const scheduledAt = new Date().toISOString();
  // What it found is what the console measures its progress against.
  await recordBulkScheduled(kind, source, scheduledAt, { repositories: found.count, bytes: found.bytes, destination });
  const arn = await startBulkExecution({ kind, source, destination, pageSize: pageSize(), drain: drainPolicy(opts.drain), scheduledAt });
  if (arn) await updateBulk({ kind, source, scheduledAt }, "SET executionArn = :arn", { ":arn": arn });
}

export interface BatchState extends BulkInput {
  cursor?: string;
  more?: boolean;
  batches?: MoveBatchInput[];
  /** Repositories this execution could not schedule so far (read-only, busy, no destination). */
  skipped?: number;
  /** Batches the state machine's Map runs at once for this page (`MaxConcurrencyPath`). */
  maxConcurrency?: number;
  /** An administrator canceled this bulk move: no page was read, none will be. */
  canceled?: boolean;
}

type PageResult = Required<Omit<BatchState, "cursor" | "canceled">> & { cursor?: string; canceled?: boolean };

/**
 * One page of a bulk execution. Safe to run again: moves it already scheduled are picked up, not
 * lost, and the first page also takes up the moves an earlier run of this same execution had
 * already switched (see `switchedEarlier`).
 */
export async function scheduleBatch(state: BatchState, executionName: string): Promise<PageResult> {
  const { kind, source, destination, drain, scheduledAt } = state.bulk;
  const resumed = state.cursor === undefined && scheduledAt ? await switchedEarlier(kind, executionName, scheduledAt) : [];
  // Read at every page, so an operator's cancel or concurrency change applies from the next one.
  const control = await readBulkControl(kind, source);
  const shape = pageShape(control);
  const bulkRef = { kind, source, ...(scheduledAt ? { scheduledAt } : {}) };
  const inBatches = (moves: MoveInput[]) =>
    Array.from({ length: Math.ceil(moves.length / shape.size) }, (_, b) => ({ moves: moves.slice(b * shape.size, (b + 1) * shape.size), drain, bulk: bulkRef }));
  if (isCanceled(control, scheduledAt)) {
    log.info("Bulk storage move canceled by an administrator: no further page is scheduled", { kind, source, executionName });
    // Moves switched already still need their cleanup and their finish.
    const switched = resumed.map((move) => ({ moveId: move.id, kind, containerId: move.containerId }));
    return { bulk: state.bulk, cursor: state.cursor, more: false, batches: inBatches(switched), skipped: state.skipped ?? 0, maxConcurrency: shape.parallel, canceled: true };
  }
  const out = await docQuery({
    TableName: resources.mainTable(),
    IndexName: GSI2,
    KeyConditionExpression: state.cursor ? "gsi2pk = :pk AND gsi2sk > :after" : "gsi2pk = :pk",
    ExpressionAttributeValues: { ":pk": storageIndexPk(kind, source), ...(state.cursor ? { ":after": state.cursor } : {}) },
    ProjectionExpression: "#id, gsi2sk",
    ExpressionAttributeNames: { "#id": "id" },
    Limit: state.bulk.pageSize,
  });
  const rows = (out.Items ?? []) as Array<{ id: number; gsi2sk: string }>;
  // One batch read for the page's containers, one write reserving its move ids, and one transaction
  // scheduling its fresh containers (each conditional on its container; if one condition fails,
  // each container is scheduled on its own and the one that changed is skipped).
  const containers = await containersOf(rows.map((row) => ({ kind, containerId: row.id })));
  const fresh = containers.map((c) => (c && c.storage === source && isSchedulable(kind, c) ? c : undefined));
  const ids = await nextIds(moveSequence(kind), fresh.filter(Boolean).length);
  const tally = { skipped: state.skipped ?? 0 };
  const weights = destination ? undefined : await storageWeights();
  const scheduled = new Array<number | undefined>(rows.length);
  const toSchedule: Array<{ index: number; move: MoveRecord }> = [];
  fresh.forEach((container, index) => {
    if (!container) return;
    const id = ids.shift()!;
    const target = destination ?? pickWeighted(weights!, [source]);
    if (target) toSchedule.push({ index, move: newMoveRecord(kind, container, target, id, executionName) });
    else skipped(tally, kind, container, source, new NotSchedulableError(kind, NO_DESTINATION));
  });
  const together = await transactEach(
    toSchedule.map(({ move }) => schedulingItems(move)),
    async (i) => {
      const { index, move } = toSchedule[i]!;
      scheduled[index] = await scheduleOne(tally, kind, containers[index]!, source, move.destinationStorage, executionName, move.id);
      return scheduled[index] !== undefined;
    },
  );
  together.forEach((ok, i) => ok && (scheduled[toSchedule[i]!.index] ??= toSchedule[i]!.move.id));
  // The others were held already (by an earlier run of this execution?) or moved since the index was read.
  await mapConcurrently(containers, SCHEDULE_CONCURRENCY, async (container, i) => {
    if (container && !fresh[i]) scheduled[i] = await scheduleOne(tally, kind, container, source, destination, executionName);
  });
  const moves: MoveInput[] = resumed.map((move) => ({ moveId: move.id, kind, containerId: move.containerId }));
  scheduled.forEach((moveId, i) => moveId !== undefined && moves.push({ moveId, kind, containerId: rows[i]!.id }));
  const batches = inBatches(moves);
  // For the console's progress: what this execution could not schedule so far.
  if (tally.skipped !== (state.skipped ?? 0)) await updateBulk(bulkRef, "SET skipped = :n", { ":n": tally.skipped });
  return { bulk: state.bulk, cursor: rows.at(-1)?.gsi2sk ?? state.cursor, more: !!out.LastEvaluatedKey, batches, skipped: tally.skipped, maxConcurrency: shape.parallel };
}

/**
 * The moves this execution had switched but not finished when it was interrupted: the local Step
 * Functions runner starts an execution a crash interrupted again from its first state, and by then
 * their repositories are no longer on the source storage, so no page would find them and they would
 * stay `replicated`, their containers held. Only moves created since the bulk move was scheduled are read.
 */
async function switchedEarlier(kind: MoveKind, executionName: string, scheduledAt: string): Promise<MoveRecord[]> {
  const recent = await movesCreatedSince(kind, scheduledAt);
  return recent.filter((move) => move.bulkExecution === executionName && move.state === "replicated").reverse();
}

async function scheduleOne(tally: { skipped: number }, kind: MoveKind, container: AnyContainer, source: string, destination: string | undefined, executionName: string, id?: number) {
  if (container.storageMoveId !== undefined) {
    // Scheduled by an earlier run of this very execution (a retried task, or the local runner
    // restarting it): run it now rather than strand it read-only.
    const earlier = await findMove(kind, container.storageMoveId);
    if (earlier && !isTerminal(earlier.state) && earlier.bulkExecution === executionName) return earlier.id;
  }
  if (container.storage !== source) return undefined; // moved since the index was read
  try {
    const target = destination ?? (await pickStorage([source]));
    if (!target) throw new NotSchedulableError(kind, NO_DESTINATION);
    const move = await createScheduledMove(kind, container, target, { bulkExecution: executionName, id });
    return move.id;
  } catch (err) {
    if (!(err instanceof NotSchedulableError)) throw err;
    skipped(tally, kind, container, source, err);
    return undefined;
  }
}

/** GitLab's bulk service logs a container it cannot schedule and carries on with the next. */
function skipped(tally: { skipped: number }, kind: MoveKind, container: AnyContainer, source: string, err: NotSchedulableError) {
  tally.skipped++;
  log.info(`Container ${displayPath(kind, container)} (${container.id}) was skipped: ${err.message}`, { kind, containerId: container.id, source });
}
