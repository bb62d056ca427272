/**
 * Every state change of a move, each one conditional write (or one transaction when the container's
 * repository state changes with it), so two executions or a retried step can never both win.
 *
 * The container keeps `storageMoveId` from scheduling until the move is over (`finished`, `failed`,
 * `cleanup failed`), also after the switch made it writable again: no second move may start while
 * this one may still delete a copy.
 */
import { pad, transact, updateItem, isConditionFailure, type TransactItem } from "../../platform/db/table.js";
import { containerKey, storageIndexPk } from "../../hosting/domain/keys.js";
import { moveKey } from "../keys.js";
import type { MoveRecord, MoveState } from "./records.js";

const now = () => new Date().toISOString();

function moveUpdate(move: MoveRecord, to: MoveState, from: MoveState[], extra: { set?: string; values?: Record<string, unknown>; detail?: string } = {}): TransactItem {
  const fromValues = Object.fromEntries(from.map((s, i) => [`:from${i}`, s]));
  const at = now();
  return {
    Update: {
      Key: moveKey(move.kind, move.id),
      UpdateExpression: `SET #state = :to, updatedAt = :now, history = list_append(if_not_exists(history, :empty), :entry)${extra.set ? `, ${extra.set}` : ""}`,
      ConditionExpression: `#state IN (${Object.keys(fromValues).join(", ")})`,
      ExpressionAttributeNames: { "#state": "state" },
      ExpressionAttributeValues: { ":to": to, ":now": at, ":empty": [], ":entry": [{ step: to, at, ...(extra.detail ? { detail: extra.detail } : {}) }], ...fromValues, ...extra.values },
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

export const markStarted = (move: MoveRecord, executionArn: string | undefined) =>
  tryTransaction([moveUpdate(move, "started", ["scheduled"], { set: "executionArn = :arn", values: { ":arn": executionArn ?? null } })]);

/**
 * The switch: the container now points at the destination (same relative path), leaves the source
 * storage index for the destination's, and is writable again; the move is `replicated`, and its
 * history entry carries `detail` (the verified checksum).
 */
export const switchStorage = (move: MoveRecord, detail?: string) =>
  tryTransaction([
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
    moveUpdate(move, "replicated", ["started"], { detail }),
  ]);

/** Ends the move's hold on the container; a container deleted after the switch needs no release. */
function release(move: MoveRecord, makeWritable: boolean): TransactItem {
  return {
    Update: {
      Key: containerKey(move.kind, move.containerId),
      UpdateExpression: `${makeWritable ? "SET readOnly = :false " : ""}REMOVE storageMoveId`,
      ConditionExpression: "storageMoveId = :id",
      ExpressionAttributeValues: { ":id": move.id, ...(makeWritable ? { ":false": false } : {}) },
    },
  };
}

export const markFinished = async (move: MoveRecord) =>
  (await tryTransaction([moveUpdate(move, "finished", ["replicated"]), release(move, false)])) ||
  tryTransaction([moveUpdate(move, "finished", ["replicated"])]);

const errorValues = (message: string) => ({ set: "errorMessage = :msg", values: { ":msg": message } });

/** Not switched yet: the repository stays on (and is writable again on) the source. */
export const markFailed = async (move: MoveRecord, message: string) =>
  (await tryTransaction([moveUpdate(move, "failed", ["initial", "scheduled", "started"], errorValues(message)), release(move, true)])) ||
  // The container is no longer ours to unlock (it vanished or someone else took it): record the failure only.
  tryTransaction([moveUpdate(move, "failed", ["initial", "scheduled", "started"], errorValues(message))]);

/** Switched, but the source copy could not be removed: the repository lives on the destination. */
export const markCleanupFailed = async (move: MoveRecord, message: string) =>
  (await tryTransaction([moveUpdate(move, "cleanup failed", ["replicated"], errorValues(message)), release(move, false)])) ||
  tryTransaction([moveUpdate(move, "cleanup failed", ["replicated"], errorValues(message))]);

/** A step worth showing an operator that is not a state change (e.g. "waiting for writes"). */
export async function noteStep(move: MoveRecord, step: string, detail?: string): Promise<void> {
  await updateItem({
    ...moveKey(move.kind, move.id),
    update: "SET history = list_append(if_not_exists(history, :empty), :entry)",
    values: { ":empty": [], ":entry": [{ step, at: now(), ...(detail ? { detail } : {}) }] },
  });
}
