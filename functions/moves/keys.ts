/**
 * DynamoDB keys of the storage-move context, named by the access pattern that reads them.
 *
 * | item        | pk                    | sk   | gsi1pk / gsi1sk (all moves of a kind) | gsi2pk / gsi2sk (moves of one container) |
 * |-------------|-----------------------|------|---------------------------------------|------------------------------------------|
 * | move record | MOVE#<kind>#<id>      | MOVE | MOVES#<kind> / <id pad>               | <KIND>#<containerId>#MOVES / <id pad>    |
 *
 * Both lists are Queries read newest first (ids come from `nextId`, so id order is creation order).
 *
 * The container item (`functions/hosting/domain/keys.ts`) carries, next to its repository state, the
 * attribute `storageMoveId`: the move that set `readOnly`. Every later write a move makes to the
 * container is conditional on it, so a move never touches a container another actor locked.
 * Bulk scheduling pages through the hosting storage index `STORAGE#<storage>#<kind>` (gsi2).
 */
import { pad } from "../platform/db/table.js";
import type { ContainerKind } from "../hosting/domain/keys.js";

export type MoveKind = ContainerKind;

export const moveKey = (kind: MoveKind, id: number) => ({ pk: `MOVE#${kind}#${id}`, sk: "MOVE" });
export const allMovesIndexPk = (kind: MoveKind) => `MOVES#${kind}`;
export const allMovesIndex = (kind: MoveKind, id: number) => ({ gsi1pk: allMovesIndexPk(kind), gsi1sk: pad(id) });
export const containerMovesIndexPk = (kind: MoveKind, containerId: number) => `${kind.toUpperCase()}#${containerId}#MOVES`;
export const containerMovesIndex = (kind: MoveKind, containerId: number, id: number) => ({
  gsi2pk: containerMovesIndexPk(kind, containerId),
  gsi2sk: pad(id),
});
/** Id sequence of move records, one per kind as in GitLab (three tables, three id spaces). */
export const moveSequence = (kind: MoveKind) => `${kind}_repository_storage_moves`;
/**
 * The operator's handle on the storage-wide moves of a kind off one storage (`domain/bulk-control.ts`):
 * when the latest was scheduled, when it was canceled, how many moves may run at once; and what the
 * console shows of its progress (what it found on the source, what it skipped and copied so far, its
 * counts once it ended). The console reads every one in a batch: a kind and a configured storage each.
 */
export const bulkControlKey = (kind: MoveKind, source: string) => ({ pk: `BULKCTL#${kind}#${source}`, sk: "BULKCTL" });
/** What this instance's moves copied so far, and how long it took (the plan's duration estimate). */
export const copyThroughputKey = { pk: "MOVESTATS", sk: "COPY" } as const;
/**
 * What moves copied and finished in one minute (`2026-05-01T12:34`), for the console's throughput
 * chart: the last hour is one Query of the partition, by sort key. Each item expires after a day.
 */
export const MINUTE_STATS_PK = "MOVESTATS#MINUTE";
export const minuteStatsKey = (minute: string) => ({ pk: MINUTE_STATS_PK, sk: minute });
