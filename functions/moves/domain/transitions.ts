/**
 * Every state change of a move, each one conditional write (or one transaction when the container's
 * repository state changes with it), so two executions or a retried step can never both win.
 *
 * The container keeps `storageMoveId` from scheduling until the move is over (`finished`, `failed`,
 * `cleanup failed`), also after the switch made it writable again: no second move may start while
 * this one may still delete a copy.
 */
import { pad, transact, updateItem, isConditionFailure, type TransactItem } from "../../platform/db/table.js";
import { mapConcurrently } from "../../platform/concurrency.js";
import { containerKey, storageIndexPk } from "../../hosting/domain/keys.js";
import { moveKey } from "../keys.js";
import type { HistoryEntry, MoveRecord, MoveState } from "./records.js";

const now = () => new Date().toISOString();

/** What a state change needs to know of a move: the record's identity and where it moves. */
export type MoveRef = Pick<MoveRecord, "id" | "kind" | "containerId" | "sourceStorage" | "destinationStorage" | "relativePath">;

/**
 * `notes`: steps done since the last write (e.g. "copied and verified"), with their own times; they
 * are appended before the state's own entry, so a step costs no write of its own.
 */
interface Extra {
  set?: string;
  values?: Record<string, unknown>;
  detail?: string;
  notes?: HistoryEntry[];
}

function moveUpdate(move: Pick<MoveRef, "id" | "kind">, to: MoveState, from: MoveState[], extra: Extra = {}): TransactItem {
  const fromValues = Object.fromEntries(from.map((s, i) => [`:from${i}`, s]));
  const at = now();
  return {
    Update: {
      Key: moveKey(move.kind, move.id),
      UpdateExpression: `SET #state = :to, updatedAt = :now, history = list_append(if_not_exists(history, :empty), :entry)${extra.set ? `, ${extra.set}` : ""}`,
      ConditionExpression: `#state IN (${Object.keys(fromValues).join(", ")})`,
      ExpressionAttributeNames: { "#state": "state" },
      ExpressionAttributeValues: { ":to": to, ":now": at, ":empty": [], ":entry": [...(extra.notes ?? []), { step: to, at, ...(extra.detail ? { detail: extra.detail } : {}) }], ...fromValues, ...extra.values },
    },
  };
}

const reasonCodes = (err: unknown) =>
  ((err as { CancellationReasons?: Array<{ Code?: string }> }).CancellationReasons ?? []).map((r) => r.Code ?? "None");

/**
 * Returns false when a condition did not hold (the caller re-reads and decides). A transaction
 * cancelled only because another write touched the same item at that moment is tried again: treating
 * it as "condition failed" could record a failure without unlocking the container.
 */
export async function tryTransaction(items: TransactItem[]): Promise<boolean> {
  for (let tries = 1; ; tries++) {
    try {
      await transact(items);
      return true;
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
      const codes = reasonCodes(err);
      if (codes.length === 0 || codes.includes("ConditionalCheckFailed")) return false;
      if (tries >= 6) throw err;
      await new Promise((r) => setTimeout(r, 20 * 2 ** tries * Math.random()));
    }
  }
}

/** DynamoDB's limit on the items of one transaction. */
const MAX_TRANSACTION_ITEMS = 100;

/**
 * The same change for many moves in as few transactions as fit (100 items each), so a batch of
 * moves costs one round trip; where a condition fails, each move of that transaction runs its own
 * `single` instead and decides alone. Returns whether each group's change went through.
 */
export async function transactEach(groups: TransactItem[][], single: (index: number) => Promise<boolean>): Promise<boolean[]> {
  const results = new Array<boolean>(groups.length);
  for (let start = 0; start < groups.length; ) {
    let end = start;
    for (let items = 0; end < groups.length && items + groups[end]!.length <= MAX_TRANSACTION_ITEMS; end++) items += groups[end]!.length;
    end = Math.max(end, start + 1);
    const indexes = Array.from({ length: end - start }, (_, k) => start + k);
    if (indexes.length > 1 && (await tryTransaction(indexes.flatMap((i) => groups[i]!)))) for (const i of indexes) results[i] = true;
    else await mapConcurrently(indexes, 4, async (i) => void (results[i] = await single(i)));
    start = end;
  }
  return results;
}

const startedUpdate = (move: Pick<MoveRef, "id" | "kind">, executionArn: string | undefined) =>
  moveUpdate(move, "started", ["scheduled"], { set: "executionArn = :arn", values: { ":arn": executionArn ?? null } });

export const markStarted = (move: Pick<MoveRef, "id" | "kind">, executionArn: string | undefined) => tryTransaction([startedUpdate(move, executionArn)]);

/** `scheduled → started` for every move given, each owned by `executionArn` from now on. */
export const markAllStarted = (moves: Array<Pick<MoveRef, "id" | "kind">>, executionArn: string | undefined) =>
  transactEach(
    moves.map((move) => [startedUpdate(move, executionArn)]),
    (i) => markStarted(moves[i]!, executionArn),
  );

/**
 * The switch: the container now points at the destination (same relative path), leaves the source
 * storage index for the destination's, and is writable again; the move is `replicated`, and its
 * history entry carries `detail` (the verified checksum).
 */
const switchItems = (move: MoveRef, extra: Extra): TransactItem[] => [
  {
    Update: {
      Key: containerKey(move.kind, move.containerId),
      UpdateExpression: "SET #storage = :dest, gsi2pk = :g2pk, gsi2sk = :g2sk, readOnly = :false",
      ConditionExpression: "storageMoveId = :id AND #storage = :src AND relativePath = :rel AND readOnly = :true",
      ExpressionAttributeNames: { "#storage": "storage" },
      ExpressionAttributeValues: {
        ":dest": move.destinationStorage,
        ":g2pk": storageIndexPk(move.kind, move.destinationStorage),
        ":g2sk": pad(move.containerId),
        ":false": false,
        ":true": true,
        ":id": move.id,
        ":src": move.sourceStorage,
        ":rel": move.relativePath,
      },
    },
  },
  moveUpdate(move, "replicated", ["started"], extra),
];

export const switchStorage = (move: MoveRef, extra: Extra = {}) => tryTransaction(switchItems(move, extra));

/** The switch for many moves at once (one transaction when all conditions hold). */
export const switchAll = (moves: Array<{ move: MoveRef; extra: Extra }>) =>
  transactEach(
    moves.map(({ move, extra }) => switchItems(move, extra)),
    (i) => switchStorage(moves[i]!.move, moves[i]!.extra),
  );

/** Ends the move's hold on the container; a container deleted after the switch needs no release. */
function release(move: Pick<MoveRef, "kind" | "containerId" | "id">, makeWritable: boolean): TransactItem {
  return {
    Update: {
      Key: containerKey(move.kind, move.containerId),
      UpdateExpression: `${makeWritable ? "SET readOnly = :false " : ""}REMOVE storageMoveId`,
      ConditionExpression: "storageMoveId = :id",
      ExpressionAttributeValues: { ":id": move.id, ...(makeWritable ? { ":false": false } : {}) },
    },
  };
}

type Releasable = Pick<MoveRef, "id" | "kind" | "containerId">;

export const markFinished = async (move: Releasable, notes?: HistoryEntry[]) =>
  (await tryTransaction([moveUpdate(move, "finished", ["replicated"], { notes }), release(move, false)])) ||
  tryTransaction([moveUpdate(move, "finished", ["replicated"], { notes })]);

/** `replicated → finished` for many moves at once, each releasing its container. */
export const markAllFinished = (moves: Array<{ move: Releasable; notes?: HistoryEntry[] }>) =>
  transactEach(
    moves.map(({ move, notes }) => [moveUpdate(move, "finished", ["replicated"], { notes }), release(move, false)]),
    (i) => markFinished(moves[i]!.move, moves[i]!.notes),
  );

/** The failure's cause goes on the record (GitLab's `error_message`) and on its `failed` history entry, where operators watch. */
const errorValues = (message: string, notes?: HistoryEntry[]): Extra => ({ set: "errorMessage = :msg", values: { ":msg": message }, detail: message, notes });

/** Not switched yet: the repository stays on (and is writable again on) the source. */
export const markFailed = async (move: Releasable, message: string, notes?: HistoryEntry[]) =>
  (await tryTransaction([moveUpdate(move, "failed", ["initial", "scheduled", "started"], errorValues(message, notes)), release(move, true)])) ||
  // The container is no longer ours to unlock (it vanished or someone else took it): record the failure only.
  tryTransaction([moveUpdate(move, "failed", ["initial", "scheduled", "started"], errorValues(message, notes))]);

/**
 * Canceled before it started: `failed` with `message`, its container writable again on the source.
 * Only from `scheduled`, so a move a batch is starting at the same moment is either canceled or
 * started, never both.
 */
const canceledItems = (move: Releasable, message: string) => [moveUpdate(move, "failed", ["scheduled"], errorValues(message)), release(move, true)];

export const markAllCanceled = (moves: Releasable[], message: string) =>
  transactEach(
    moves.map((move) => canceledItems(move, message)),
    (i) => tryTransaction(canceledItems(moves[i]!, message)),
  );

/** Switched, but the source copy could not be removed: the repository lives on the destination. */
export const markCleanupFailed = async (move: Releasable, message: string, notes?: HistoryEntry[]) =>
  (await tryTransaction([moveUpdate(move, "cleanup failed", ["replicated"], errorValues(message, notes)), release(move, false)])) ||
  tryTransaction([moveUpdate(move, "cleanup failed", ["replicated"], errorValues(message, notes))]);

/** A step worth showing an operator that is not a state change (e.g. "waiting for writes"). */
export async function noteStep(move: Pick<MoveRef, "id" | "kind">, step: string, detail?: string): Promise<void> {
  await updateItem({
    ...moveKey(move.kind, move.id),
    update: "SET history = list_append(if_not_exists(history, :empty), :entry)",
    values: { ":empty": [], ":entry": [{ step, at: now(), ...(detail ? { detail } : {}) }] },
  });
}
