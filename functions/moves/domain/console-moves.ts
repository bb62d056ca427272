/**
 * The console's moves view: every move newest first, filtered by type, state and storage, one keyset
 * page at a time; the latest storage-wide move of each type off each storage with its progress; and
 * the throughput of the last hour. Queries only (never a Scan):
 * - moves: the all-moves index of each type (`MOVES#<kind>`, newest first), resumed after the last
 *   move shown of each type, with the state and storage as a filter on the Query;
 * - storage-wide moves: their control items, one batch read (a type and a storage each), and for one
 *   that still runs, the moves created since it was scheduled (the same Query its summary makes);
 * - throughput: one Query of the minutes' partition (`throughput.ts`).
 */
import { ApiError } from "../../platform/http/errors.js";
import { GSI1, pad, queryPage, queryWhile } from "../../platform/db/table.js";
import { storageNames } from "../../platform/config.js";
import { allMovesIndexPk, type MoveKind } from "../keys.js";
import { containersOf, displayPath } from "./containers.js";
import { CANCELED_MESSAGE, defaultConcurrency, readBulkControls, type BulkControl } from "./bulk-control.js";
import { CONTAINER_KINDS } from "../../hosting/domain/keys.js";
import { movableKinds } from "./policy.js";
import { MOVE_STATES, type MoveRecord, type MoveState } from "./records.js";
import { lastMinutes } from "./throughput.js";
import { consoleUrl } from "./console-url.js";

export interface MoveFilters {
  kinds: MoveKind[];
  state?: MoveState;
  /** Moves off or onto this storage. */
  storage?: string;
  cursor?: string;
  limit: number;
}

/** Where the next page resumes, per type: after the move with this id (absent: from the newest). */
type Positions = Partial<Record<MoveKind, number>>;

const badCursor = () => new ApiError(400, { message: "400 Bad request - invalid cursor" });

export function decodeMoveCursor(raw: string | undefined): Positions {
  if (!raw) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
  } catch {
    throw badCursor();
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw badCursor();
  const out: Positions = {};
  for (const [k, v] of Object.entries(parsed)) {
    if (!CONTAINER_KINDS.includes(k as MoveKind) || !Number.isInteger(v) || (v as number) < 1) throw badCursor();
    out[k as MoveKind] = v as number;
  }
  return out;
}

const encodeCursor = (p: Positions) => Buffer.from(JSON.stringify(p)).toString("base64url");

export interface MoveRow {
  type: MoveKind;
  id: number;
  state: MoveState;
  source_storage_name: string;
  destination_storage_name: string;
  created_at: string;
  updated_at: string;
  error_message: string | null;
  container: { id: number; name: string } | null;
  /** Scheduled by a storage-wide move (its execution's name). */
  bulk_execution_name: string | null;
}

/**
 * One page of moves, newest first across the types asked for (by creation time). Each type's index
 * is read after the last move of that type the previous page showed; `next` says where the page
 * after this one starts, absent on the last page.
 */
export async function listMovesPage(filters: MoveFilters): Promise<{ moves: MoveRow[]; next?: string }> {
  const from = decodeMoveCursor(filters.cursor);
  const clauses: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  if (filters.state) {
    clauses.push("#state = :state");
    names["#state"] = "state";
    values[":state"] = filters.state;
  }
  if (filters.storage) {
    clauses.push("(sourceStorage = :storage OR destinationStorage = :storage)");
    values[":storage"] = filters.storage;
  }
  const filter = clauses.length ? { expression: clauses.join(" AND "), names: Object.keys(names).length ? names : undefined, values } : undefined;
  const pages = await Promise.all(
    filters.kinds.map(async (kind) => {
      const after = from[kind];
      if (after === 1) return { kind, items: [] as MoveRecord[], hasMore: false };
      const page = await queryPage<MoveRecord>({ index: GSI1, pk: allMovesIndexPk(kind), ...(after ? { skTo: pad(after - 1) } : {}), filter, offset: 0, limit: filters.limit });
      return { kind, ...page };
    }),
  );
  const merged = pages
    .flatMap((p) => p.items)
    .sort((a, b) => (a.createdAt === b.createdAt ? b.id - a.id : a.createdAt < b.createdAt ? 1 : -1))
    .slice(0, filters.limit);
  const positions: Positions = { ...from };
  for (const m of merged) positions[m.kind] = Math.min(positions[m.kind] ?? Infinity, m.id);
  // More after this page: a type had more than it read, or read moves this page did not show.
  const more = pages.some((p) => p.hasMore || p.items.some((m) => !merged.includes(m)));
  const containers = await containersOf(merged.map((m) => ({ kind: m.kind, containerId: m.containerId })));
  return {
    moves: merged.map((m, i) => ({
      type: m.kind,
      id: m.id,
      state: m.state,
      source_storage_name: m.sourceStorage,
      destination_storage_name: m.destinationStorage,
      created_at: m.createdAt,
      updated_at: m.updatedAt,
      error_message: m.errorMessage,
      container: containers[i] ? { id: m.containerId, name: displayPath(m.kind, containers[i]!) } : null,
      bulk_execution_name: m.bulkExecution ?? null,
    })),
    ...(more ? { next: encodeCursor(positions) } : {}),
  };
}

export const isMoveState = (s: string): s is MoveState => (MOVE_STATES as readonly string[]).includes(s);

export interface BulkRow {
  type: MoveKind;
  source_storage_name: string;
  destination_storage_name: string | null;
  scheduled_at: string;
  canceled_at: string | null;
  ended_at: string | null;
  running: boolean;
  concurrency: number;
  execution_arn: string | null;
  console_url: string | null;
  /** Repositories of the type on the source when it was scheduled, and their bytes. */
  total_repositories: number;
  total_bytes: number;
  counts: Record<"scheduled" | "started" | "replicated" | "finished" | "failed" | "skipped" | "canceled", number>;
  bytes_done: number;
  /** Done (finished, failed or skipped) out of everything it had to do, 0–1. */
  progress: number;
  /** Bytes copied per second since it was scheduled; null before any copy. */
  bytes_per_second: number | null;
  /** Seconds left at that rate; null when unknown or ended. */
  eta_seconds: number | null;
}

const executionName = (arn: string | undefined) => arn?.split(":").pop();

/** How far one bulk move is, from its control item and (while it runs) its moves' records. */
async function bulkRow(control: BulkControl, now: number): Promise<BulkRow> {
  const { kind, source, scheduledAt } = control;
  const counts = { scheduled: 0, started: 0, replicated: 0, finished: 0, failed: 0, skipped: control.skipped ?? 0, canceled: 0 };
  if (control.outcome) Object.assign(counts, control.outcome);
  else {
    const name = executionName(control.executionArn);
    const since = await queryWhile<Pick<MoveRecord, "createdAt" | "state" | "sourceStorage" | "bulkExecution" | "errorMessage">>(
      { index: GSI1, pk: allMovesIndexPk(kind), projection: ["createdAt", "state", "sourceStorage", "bulkExecution", "errorMessage"] },
      (m) => m.createdAt >= scheduledAt,
    );
    for (const m of since) {
      if (!m.bulkExecution || m.sourceStorage !== source || (name && m.bulkExecution !== name)) continue;
      counts.scheduled++;
      if (m.state === "started" || m.state === "replicated" || m.state === "finished") counts[m.state]++;
      else if (m.state === "failed" || m.state === "cleanup failed") {
        counts.failed++;
        if (m.errorMessage === CANCELED_MESSAGE) counts.canceled++;
      }
    }
  }
  const running = !control.endedAt;
  const total = Math.max(control.totalRepositories ?? 0, counts.scheduled + counts.skipped);
  const done = counts.finished + counts.failed + counts.skipped;
  const bytesDone = Math.min(control.copiedBytes ?? 0, control.totalBytes ?? Infinity);
  const elapsed = Math.max(1, (now - Date.parse(scheduledAt)) / 1000);
  const rate = bytesDone > 0 ? bytesDone / elapsed : null;
  // By bytes when there are bytes to go by, else by moves.
  const eta =
    !running || done >= total
      ? null
      : rate && control.totalBytes
        ? Math.ceil(Math.max(0, control.totalBytes - bytesDone) / rate)
        : done > 0
          ? Math.ceil(((total - done) * elapsed) / done)
          : null;
  return {
    type: kind,
    source_storage_name: source,
    destination_storage_name: control.destination ?? null,
    scheduled_at: scheduledAt,
    canceled_at: control.canceledAt && control.canceledAt >= scheduledAt ? control.canceledAt : null,
    ended_at: control.endedAt ?? null,
    running,
    concurrency: control.concurrency ?? defaultConcurrency(),
    execution_arn: control.executionArn ?? null,
    console_url: consoleUrl(control.executionArn) ?? null,
    total_repositories: total,
    total_bytes: control.totalBytes ?? 0,
    counts,
    bytes_done: bytesDone,
    progress: total === 0 ? (running ? 0 : 1) : Math.min(1, done / total),
    bytes_per_second: rate === null ? null : Math.round(rate),
    eta_seconds: eta,
  };
}

/** The latest storage-wide move of each type off each storage, newest first. */
export async function bulkMoves(now = Date.now()): Promise<BulkRow[]> {
  const refs = movableKinds().flatMap((kind) => storageNames().map((source) => ({ kind, source })));
  const controls = (await readBulkControls(refs)).filter((c): c is BulkControl => !!c?.scheduledAt);
  const rows = await Promise.all(controls.map((c) => bulkRow(c, now)));
  return rows.sort((a, b) => (a.scheduled_at < b.scheduled_at ? 1 : -1));
}

/** Bytes copied per second and moves finished per minute, for each of the last `minutes` minutes. */
export async function throughput(minutes = 60, now = Date.now()) {
  const series = await lastMinutes(minutes, now);
  return {
    bytes_per_second: series.map(([t, bytes]) => [t, Math.round(bytes / 60)] as [number, number]),
    moves_per_minute: series.map(([t, , moves]) => [t, moves] as [number, number]),
  };
}
