/**
 * Reading errors for the UI JSON. Every list is a Query on one status's index range:
 * - `last_seen` (default): gsi1, newest first; `first_seen`: gsi2, newest first. Keyset pages: the
 *   cursor is the last (or, going back, the first) key shown, so a page costs ~`limit` reads.
 * - `frequency`: the occurrence count changes on every event, so it cannot be an index key without a
 *   read per event. It sorts in memory the FREQUENCY_WINDOW most recently seen errors of the status;
 *   older, quieter errors beyond that window are left out of this order (documented limit).
 * - `search_term` is a filter on those ranges (case-insensitive substring of title, message,
 *   culprit), evaluating at most SEARCH_BUDGET items per request; the cursor resumes after them.
 * - `release` / `environment` read the filter index of that value instead (`tags.ts`: the errors seen
 *   with it, by when they were last or first seen with it), then the errors of each index page in one
 *   batch, keeping those of the status (and of the other filter's value, when both are given). The
 *   same budget bounds a request; a status that few of the value's errors have may need several pages.
 */
import { docQuery } from "../../platform/db/document.js";
import { resources } from "../../platform/resources.js";
import { getItems, GSI1, GSI2, type Item } from "../../platform/db/table.js";
import { errorKey, errorsByStatusPk, type ErrorStatus } from "./keys.js";
import { filterPk, tagKey, type FilterKey } from "./tags.js";
import { decodeCursor, encodeCursor, type Cursor } from "./cursor.js";
import type { ErrorItem } from "./errors.js";

export type SortOrder = "last_seen" | "first_seen" | "frequency";
export const FREQUENCY_WINDOW = 1000;
export const SEARCH_BUDGET = 2000;

export interface ListQuery {
  projectId: number;
  status: ErrorStatus;
  sort: SortOrder;
  cursor?: string;
  searchTerm?: string;
  /** Only errors seen with this release / environment. */
  release?: string;
  environment?: string;
  limit: number;
  now?: Date;
}

export interface ErrorPage {
  errors: ErrorItem[];
  next?: string;
  previous?: string;
}

type Key = Record<string, unknown>;

/** A listed error and the index key a page resumes after it. */
interface Hit {
  error: ErrorItem;
  key: Key;
}

const nowSec = (q: ListQuery) => Math.floor((q.now ?? new Date()).getTime() / 1000);
// DynamoDB Local never runs TTL, and real TTL lags: hide what retention has not removed yet.
const LIVE = "(attribute_not_exists(expireAt) OR expireAt > :now)";
const isLive = (item: { expireAt?: number } | undefined, now: number) => !!item && (item.expireAt === undefined || item.expireAt > now);

function filterOf(q: ListQuery) {
  const parts = [LIVE];
  const values: Record<string, unknown> = { ":now": nowSec(q) };
  if (q.searchTerm) {
    parts.push("contains(#search, :q)");
    values[":q"] = q.searchTerm.toLowerCase();
  }
  return { expression: parts.join(" AND "), values };
}

/** The index range a list reads: one status's errors, or one release's / environment's filter entries. */
function rangeOf(q: ListQuery) {
  const by: FilterKey | undefined = q.release !== undefined ? "release" : q.environment !== undefined ? "environment" : undefined;
  if (!by) return { pk: errorsByStatusPk(q.projectId, q.status), itemSk: (sk: string) => sk === "ERROR" };
  return { pk: filterPk(q.projectId, by, (by === "release" ? q.release : q.environment)!), itemSk: (sk: string) => sk.startsWith("TAG#"), by };
}

const keyOf = (index: string, item: Key): Key => ({ pk: item.pk, sk: item.sk, [`${index}pk`]: item[`${index}pk`], [`${index}sk`]: item[`${index}sk`] });

/** Filter entries → the errors they name that pass the status, the other filter and the search. */
async function resolveFilterEntries(index: string, entries: Item[], q: ListQuery): Promise<Hit[]> {
  const now = nowSec(q);
  const errorIds = entries.map((f) => Number(f.errorId));
  const other = q.release !== undefined && q.environment !== undefined ? q.environment : undefined;
  const [errors, others] = await Promise.all([
    getItems<ErrorItem>(errorIds.map((id) => errorKey(q.projectId, id)), false),
    other === undefined ? Promise.resolve([]) : getItems<Item & { expireAt?: number }>(errorIds.map((id) => tagKey(q.projectId, id, "environment", other)), false),
  ]);
  const term = q.searchTerm?.toLowerCase();
  return entries.flatMap((entry, i) => {
    const error = errors[i];
    if (!error || !isLive(error, now) || error.status !== q.status) return [];
    if (other !== undefined && !isLive(others[i], now)) return [];
    if (term && !String((error as unknown as { search?: string }).search ?? "").includes(term)) return [];
    return [{ error, key: keyOf(index, entry) }];
  });
}

/** Up to `want` matching errors from `start`, reading at most `budget` index entries. */
async function collect(index: string, forward: boolean, start: Key | undefined, want: number, budget: number, q: ListQuery) {
  const range = rangeOf(q);
  // The status filter is applied to the errors of a filter range, after reading them.
  const filter = range.by ? { expression: LIVE, values: { ":now": nowSec(q) } } : filterOf(q);
  const hits: Hit[] = [];
  let startKey = start;
  let evaluated = 0;
  do {
    const out = await docQuery({
      TableName: resources.mainTable(),
      IndexName: index,
      KeyConditionExpression: "#pk = :pk",
      FilterExpression: filter.expression,
      ExpressionAttributeNames: { "#pk": `${index}pk`, ...(q.searchTerm && !range.by ? { "#search": "search" } : {}) },
      ExpressionAttributeValues: { ":pk": range.pk, ...filter.values },
      ScanIndexForward: forward,
      // A search or a filter drops much of what it reads, so those read in larger steps.
      Limit: Math.min(budget - evaluated, Math.max(want - hits.length, q.searchTerm || range.by ? 100 : 25)),
      ExclusiveStartKey: startKey,
    });
    evaluated += out.ScannedCount ?? 0;
    const items = (out.Items ?? []) as Item[];
    hits.push(...(range.by ? await resolveFilterEntries(index, items, q) : items.map((e) => ({ error: e as unknown as ErrorItem, key: keyOf(index, e) }))));
    startKey = out.LastEvaluatedKey;
  } while (startKey && hits.length < want && evaluated < budget);
  // Stopped by the budget with matches still possible: resume from where the read stopped.
  return { hits: hits.slice(0, want), resumeKey: hits.length < want ? startKey : undefined };
}

async function keysetPage(q: ListQuery, cursor: Cursor | undefined): Promise<ErrorPage> {
  const index = q.sort === "first_seen" ? GSI2 : GSI1;
  const back = cursor?.d === "p";
  const got = await collect(index, back, cursor?.k, q.limit + 1, SEARCH_BUDGET, q);
  const shown = got.hits.slice(0, q.limit);
  const more = got.hits.length > q.limit || !!got.resumeKey;
  const hits = back ? shown.reverse() : shown;
  const first = hits[0];
  const last = hits[hits.length - 1];
  const at = (d: "n" | "p", k: Key | undefined) => (k ? encodeCursor({ s: q.sort, d, k }) : undefined);
  const errors = hits.map((h) => h.error);
  if (back) {
    return { errors, next: at("n", last ? last.key : cursor?.k), previous: more ? at("p", got.resumeKey ?? first?.key) : undefined };
  }
  return {
    errors,
    next: more ? at("n", got.resumeKey ?? last?.key) : undefined,
    previous: cursor && first ? at("p", first.key) : undefined,
  };
}

async function frequencyPage(q: ListQuery, cursor: Cursor | undefined): Promise<ErrorPage> {
  const got = await collect(GSI1, false, undefined, FREQUENCY_WINDOW, FREQUENCY_WINDOW, q);
  const sorted = got.hits.map((h) => h.error).sort((a, b) => b.eventsCount - a.eventsCount || b.lastSeen.localeCompare(a.lastSeen) || b.errorId - a.errorId);
  const offset = cursor?.o ?? 0;
  const errors = sorted.slice(offset, offset + q.limit);
  return {
    errors,
    next: offset + q.limit < sorted.length ? encodeCursor({ s: q.sort, d: "n", o: offset + q.limit }) : undefined,
    previous: offset > 0 ? encodeCursor({ s: q.sort, d: "p", o: Math.max(0, offset - q.limit) }) : undefined,
  };
}

export async function listErrors(q: ListQuery): Promise<ErrorPage> {
  const range = rangeOf(q);
  const cursor = q.cursor ? decodeCursor(q.cursor, q.sort, range.pk, range.itemSk) : undefined;
  return q.sort === "frequency" ? frequencyPage(q, cursor) : keysetPage(q, cursor);
}
