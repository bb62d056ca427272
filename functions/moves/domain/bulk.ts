/**
 * Bulk scheduling ("move every project on storage X"). The POST only validates and starts a bulk
 * execution, so it answers at once however many repositories there are. The execution pages through
 * the source storage's index (a Query, never a Scan): each page schedules up to `pageSize` moves and
 * runs them with the state machine's bounded concurrency before the next page is read, so
 * repositories stay writable until their turn comes.
 */
import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { dynamo } from "../../platform/aws.js";
import { resources } from "../../platform/resources.js";
import { GSI2, getItems, nextIds } from "../../platform/db/table.js";
import { paramError } from "../../platform/http/errors.js";
import { log } from "../../platform/log.js";
import { mapConcurrently } from "../../platform/concurrency.js";
import { pickStorage } from "../../identity/domain/settings.js";
import { containerKey, storageIndexPk } from "../../hosting/domain/keys.js";
import { moveSequence, type MoveKind } from "../keys.js";
import { displayPath, type AnyContainer } from "./containers.js";
import { drainPolicy, startBulkExecution, type BulkInput, type DrainPolicy, type MoveInput } from "./execution.js";
import { assertBulkStorages } from "./policy.js";
import { findMove, isTerminal } from "./records.js";
import { createScheduledMove, NotSchedulableError } from "./schedule.js";

/** Scheduling transactions in flight at once within a page. */
const SCHEDULE_CONCURRENCY = 8;

const pageSize = () => Math.min(500, Math.max(1, Number(process.env.FORGELINE_MOVE_BULK_PAGE_SIZE) || 50));

export async function scheduleBulkMoves(kind: MoveKind, source: string, destination?: string, opts: { drain?: Partial<DrainPolicy> } = {}) {
  assertBulkStorages(source, destination);
  // GitLab picks a destination per repository when none is given; refuse now if there is none to pick.
  if (destination === undefined && !(await pickStorage([source]))) {
    throw paramError("destination_storage_name is missing and no other storage has a weight above 0 in repository_storages_weighted");
  }
  await startBulkExecution({ kind, source, destination, pageSize: pageSize(), drain: drainPolicy(opts.drain) });
}

export interface BatchState extends BulkInput {
  cursor?: string;
  more?: boolean;
  moves?: MoveInput[];
}

/** One page of a bulk execution. Safe to run again: moves it already scheduled are picked up, not lost. */
export async function scheduleBatch(state: BatchState, executionName: string): Promise<Required<Omit<BatchState, "cursor">> & { cursor?: string }> {
  const { kind, source, destination, drain } = state.bulk;
  const out = await dynamo().send(
    new QueryCommand({
      TableName: resources.mainTable(),
      IndexName: GSI2,
      KeyConditionExpression: state.cursor ? "gsi2pk = :pk AND gsi2sk > :after" : "gsi2pk = :pk",
      ExpressionAttributeValues: { ":pk": storageIndexPk(kind, source), ...(state.cursor ? { ":after": state.cursor } : {}) },
      ProjectionExpression: "#id, gsi2sk",
      ExpressionAttributeNames: { "#id": "id" },
      Limit: state.bulk.pageSize,
    }),
  );
  const rows = (out.Items ?? []) as Array<{ id: number; gsi2sk: string }>;
  // One batch read for the page's containers and one write reserving its move ids; then the
  // per-record transactions, a few at a time (each is independent and conditional on its container).
  const containers = await getItems<AnyContainer>(rows.map((row) => containerKey(kind, row.id)));
  const fresh = containers.map((c) => !!c && c.storage === source && !!c.relativePath && !c.readOnly && c.storageMoveId === undefined);
  const ids = await nextIds(moveSequence(kind), fresh.filter(Boolean).length);
  const reserved = fresh.map((isFresh) => (isFresh ? ids.shift() : undefined));
  const scheduled = await mapConcurrently(containers, SCHEDULE_CONCURRENCY, (container, i) =>
    container ? scheduleOne(kind, container, source, destination, executionName, reserved[i]) : Promise.resolve(undefined),
  );
  const moves: MoveInput[] = [];
  scheduled.forEach((moveId, i) => moveId !== undefined && moves.push({ moveId, kind, containerId: rows[i]!.id, drain }));
  return { bulk: state.bulk, cursor: rows.at(-1)?.gsi2sk ?? state.cursor, more: !!out.LastEvaluatedKey, moves };
}

async function scheduleOne(kind: MoveKind, container: AnyContainer, source: string, destination: string | undefined, executionName: string, id?: number) {
  if (container.storageMoveId !== undefined) {
    // Scheduled by an earlier run of this very execution (a retried task, or the local runner
    // restarting it): run it now rather than strand it read-only.
    const earlier = await findMove(kind, container.storageMoveId);
    if (earlier && !isTerminal(earlier.state) && earlier.bulkExecution === executionName) return earlier.id;
  }
  if (container.storage !== source) return undefined; // moved since the index was read
  try {
    const target = destination ?? (await pickStorage([source]));
    if (!target) throw new NotSchedulableError(kind, "has no destination: no other storage has a weight above 0");
    const move = await createScheduledMove(kind, container, target, { bulkExecution: executionName, id });
    return move.id;
  } catch (err) {
    if (!(err instanceof NotSchedulableError)) throw err;
    // GitLab's bulk service logs and carries on with the next container.
    log.info(`Container ${displayPath(kind, container)} (${container.id}) was skipped: ${err.message}`, { kind, containerId: container.id, source });
    return undefined;
  }
}
