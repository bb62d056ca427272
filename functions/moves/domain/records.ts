/**
 * Move records: one per scheduled repository move, with GitLab's states (`human_state_name`) and an
 * operator's step history. Reads only; state changes live with the step that makes them.
 */
import { getItem, getItems, queryPage, queryWhile, GSI1, GSI2 } from "../../platform/db/table.js";
import { allMovesIndexPk, containerMovesIndexPk, moveKey, type MoveKind } from "../keys.js";

export const MOVE_STATES = ["initial", "scheduled", "started", "replicated", "finished", "failed", "cleanup failed"] as const;
export type MoveState = (typeof MOVE_STATES)[number];

/** GitLab keeps at most this much of the failure message (`MAX_ERROR_LENGTH`). */
export const MAX_ERROR_LENGTH = 256;

export interface HistoryEntry {
  step: string;
  at: string;
  detail?: string;
}

export interface MoveRecord {
  id: number;
  kind: MoveKind;
  containerId: number;
  state: MoveState;
  sourceStorage: string;
  destinationStorage: string;
  /** The repository's path, the same on both storages (hashed layout). */
  relativePath: string;
  errorMessage: string | null;
  createdAt: string;
  updatedAt: string;
  /** The Step Functions execution that runs (or ran) this move. */
  executionArn?: string;
  /** Name of the bulk execution that scheduled it, when it came from a bulk POST. */
  bulkExecution?: string;
  history: HistoryEntry[];
}

/**
 * `mv-project-12`: how a move names itself as the owner of the temporary folders it creates
 * (`hosting/domain/git/writer.ts`), so they can be traced back to it; `ownerMove` reads it back.
 */
export const moveOwner = (move: { kind: MoveKind; moveId: number }) => `mv-${move.kind}-${move.moveId}`;

export function ownerMove(owner: string): { kind: MoveKind; moveId: number } | undefined {
  const m = /^mv-(project|snippet|group)-(\d+)$/.exec(owner);
  return m ? { kind: m[1] as MoveKind, moveId: Number(m[2]) } : undefined;
}

export const isTerminal = (state: MoveState) => state === "finished" || state === "failed" || state === "cleanup failed";

export async function findMove(kind: MoveKind, id: number): Promise<MoveRecord | undefined> {
  const key = moveKey(kind, id);
  return getItem<MoveRecord>(key.pk, key.sk);
}

/** Several moves in one batch read, in the order given (undefined where absent). */
export function findMoves(refs: Array<{ kind: MoveKind; moveId: number }>): Promise<Array<MoveRecord | undefined>> {
  return getItems<MoveRecord>(refs.map((r) => moveKey(r.kind, r.moveId)));
}

export async function requireMove(kind: MoveKind, id: number): Promise<MoveRecord> {
  const move = await findMove(kind, id);
  if (!move) throw new Error(`Storage move ${kind}#${id} does not exist`);
  return move;
}

/** Every move of a kind, newest first (GitLab's `order_created_at_desc`). */
export async function listMoves(kind: MoveKind, offset: number, limit: number) {
  return queryPage<MoveRecord>({ index: GSI1, pk: allMovesIndexPk(kind), offset, limit });
}

/** Every move of a kind created at or after `since` (ISO 8601), newest first; the index is read no further back. */
export function movesCreatedSince(kind: MoveKind, since: string): Promise<MoveRecord[]> {
  return queryWhile<MoveRecord>({ index: GSI1, pk: allMovesIndexPk(kind) }, (move) => move.createdAt >= since);
}

/** The moves of one container, newest first. */
export async function listContainerMoves(kind: MoveKind, containerId: number, offset: number, limit: number) {
  return queryPage<MoveRecord>({ index: GSI2, pk: containerMovesIndexPk(kind, containerId), offset, limit });
}

/** Rails' `String#truncate(256)`: at most 256 characters, ending in "..." when cut. */
export function truncateError(message: string): string {
  return message.length <= MAX_ERROR_LENGTH ? message : `${message.slice(0, MAX_ERROR_LENGTH - 3)}...`;
}
