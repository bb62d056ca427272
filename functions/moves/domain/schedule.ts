/**
 * Scheduling a move: one DynamoDB transaction creates the record (`scheduled`) and marks the
 * container read-only, on condition that it is still on the source storage, not read-only and not
 * held by another move. Only then does anything start; a start that fails is rolled back to a
 * `failed` record and a writable repository.
 */
import { getItem, nextId, type TransactItem } from "../../platform/db/table.js";
import { ApiError } from "../../platform/http/errors.js";
import { containerKey } from "../../hosting/domain/keys.js";
import { allMovesIndex, containerMovesIndex, moveKey, moveSequence, type MoveKind } from "../keys.js";
import { kindInfo, type ContainerRepository } from "./containers.js";
import { drainPolicy, ExecutionStartError, startMoveExecution, type DrainPolicy } from "./execution.js";
import { resolveDestination } from "./policy.js";
import { assertRoomForContainer } from "./room.js";
import { markFailed, tryTransaction } from "./transitions.js";
import { truncateError, type MoveRecord } from "./records.js";

/** Why a container cannot be scheduled, in GitLab's per-container error shape. */
export class NotSchedulableError extends ApiError {
  constructor(
    readonly kind: MoveKind,
    readonly reason: string,
  ) {
    super(400, { message: { [kind]: [reason] } });
    this.message = reason;
  }
}

const READ_ONLY = "is read-only";
const BUSY = "has a repository storage move in progress";

type Schedulable = ContainerRepository & { storage: string; relativePath: string };

/** Why a move cannot be scheduled for this container now, or undefined when it can. */
function notSchedulableBecause(kind: MoveKind, c: ContainerRepository): string | undefined {
  if (!c.storage || !c.relativePath) return kind === "group" ? "has no wiki repository" : "has no repository";
  if (c.readOnly) return READ_ONLY;
  if (c.storageMoveId !== undefined) return BUSY;
  return undefined;
}

export function isSchedulable(kind: MoveKind, c: ContainerRepository): c is Schedulable {
  return notSchedulableBecause(kind, c) === undefined;
}

export function assertSchedulable(kind: MoveKind, c: ContainerRepository): asserts c is Schedulable {
  const reason = notSchedulableBecause(kind, c);
  if (reason !== undefined) throw new NotSchedulableError(kind, reason);
}

/** The `scheduled` record of a new move (not written yet). */
export function newMoveRecord(kind: MoveKind, container: Schedulable, destination: string, id: number, bulkExecution?: string): MoveRecord {
  const at = new Date().toISOString();
  return {
    id,
    kind,
    containerId: container.id,
    state: "scheduled",
    sourceStorage: container.storage,
    destinationStorage: destination,
    relativePath: container.relativePath,
    errorMessage: null,
    createdAt: at,
    updatedAt: at,
    history: [{ step: "scheduled", at }],
    ...(bulkExecution ? { bulkExecution } : {}),
  };
}

/** Writing the record, and holding its container read-only on condition it is still as read. */
export function schedulingItems(move: MoveRecord): TransactItem[] {
  const { kind, id } = move;
  return [
    { Put: { Item: { ...moveKey(kind, id), ...allMovesIndex(kind, id), ...containerMovesIndex(kind, move.containerId, id), type: "storage-move", ...move }, ConditionExpression: "attribute_not_exists(pk)" } },
    {
      Update: {
        Key: containerKey(kind, move.containerId),
        UpdateExpression: "SET readOnly = :true, storageMoveId = :id",
        ConditionExpression:
          "attribute_exists(pk) AND #storage = :src AND relativePath = :rel AND (attribute_not_exists(readOnly) OR readOnly = :false) AND attribute_not_exists(storageMoveId)",
        ExpressionAttributeNames: { "#storage": "storage" },
        ExpressionAttributeValues: { ":true": true, ":false": false, ":id": id, ":src": move.sourceStorage, ":rel": move.relativePath },
      },
    },
  ];
}

/** Creates the `scheduled` record and marks the container read-only, atomically. */
export async function createScheduledMove(
  kind: MoveKind,
  container: ContainerRepository,
  destination: string,
  /** `id`: one the caller reserved (bulk scheduling reserves a page's ids at once). */
  origin: { bulkExecution?: string; id?: number } = {},
): Promise<MoveRecord> {
  assertSchedulable(kind, container);
  const move = newMoveRecord(kind, container, destination, origin.id ?? (await nextId(moveSequence(kind))), origin.bulkExecution);
  if (!(await tryTransaction(schedulingItems(move)))) {
    // Someone changed the container since we read it: report what it is now.
    const key = containerKey(kind, container.id);
    const now = await getItem<ContainerRepository>(key.pk, key.sk);
    if (!now) throw new NotSchedulableError(kind, "does not exist");
    assertSchedulable(kind, now);
    throw new NotSchedulableError(kind, now.storage !== container.storage ? "changed storage while the move was being scheduled" : BUSY);
  }
  return move;
}

/** Per-container POST: schedule, then start its execution. */
export async function scheduleContainerMove(
  kind: MoveKind,
  container: ContainerRepository,
  requestedDestination?: string | null,
  opts: { drain?: Partial<DrainPolicy> } = {},
): Promise<MoveRecord> {
  assertSchedulable(kind, container);
  const destination = await resolveDestination(container.storage, requestedDestination);
  await assertRoomForContainer(container, destination);
  return scheduleContainerMoveTo(kind, container, destination, opts);
}

/**
 * The same, to a destination the caller already checked is another configured storage (a project
 * update's `repository_storage`): its function then carries none of the weighted pick's code.
 */
export async function scheduleContainerMoveTo(kind: MoveKind, container: ContainerRepository, destination: string, opts: { drain?: Partial<DrainPolicy> } = {}): Promise<MoveRecord> {
  // createScheduledMove asserts the container schedulable before anything else.
  const move = await createScheduledMove(kind, container, destination);
  try {
    await startMoveExecution(move, drainPolicy(opts.drain));
  } catch (err) {
    if (!(err instanceof ExecutionStartError)) throw err;
    await markFailed(move, truncateError(err.message));
    throw new ApiError(503, { message: `503 Service Unavailable - the ${kindInfo[kind].repositoryType} repository move could not be started and was marked failed; schedule it again` });
  }
  return move;
}
