/**
 * Reading errors for the UI JSON. Every list is a Query on one status's index range:
 * - `last_seen` (default): gsi1, newest first; `first_seen`: gsi2, newest first. Keyset pages: the
 *   cursor is the last (or, going back, the first) key shown, so a page costs ~`limit` reads.
 * - `frequency`: the occurrence count changes on every event, so it cannot be an index key without a
 *   read per event. It sorts in memory the FREQUENCY_WINDOW most recently seen errors of the status;
 *   older, quieter errors beyond that window are left out of this order (documented limit).
 * - `search_term` is a filter on those ranges (case-insensitive substring of title, message,
 *   culprit), evaluating at most SEARCH_BUDGET items per request; the cursor resumes after them.
 */
import { docQuery } from "../../platform/db/document.js";
import { resources } from "../../platform/resources.js";
import { GSI1, GSI2 } from "../../platform/db/table.js";
import { errorsByStatusPk, type ErrorStatus } from "./keys.js";
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
  limit: number;
  now?: Date;
}

export interface ErrorPage {
  errors: ErrorItem[];
  next?: string;
  previous?: string;
}

type Key = Record<string, unknown>;

function filterOf(q: ListQuery) {
  // DynamoDB Local never runs TTL, and real TTL lags: hide what retention has not removed yet.
  const parts = ["(attribute_not_exists(expireAt) OR expireAt > :now)"];
  const values: Record<string, unknown> = { ":now": Math.floor((q.now ?? new Date()).getTime() / 1000) };
  if (q.searchTerm) {
    parts.push("contains(#search, :q)");
    values[":q"] = q.searchTerm.toLowerCase();
  }
  return { expression: parts.join(" AND "), values };
}

/** Up to `want` matching items from `start`, reading at most `budget` index entries. */
async function collect(index: string, pk: string, forward: boolean, start: Key | undefined, want: number, budget: number, q: ListQuery) {
  const filter = filterOf(q);
  const items: ErrorItem[] = [];
  let startKey = start;
  let evaluated = 0;
  do {
    const out = await docQuery({
      TableName: resources.mainTable(),
      IndexName: index,
      KeyConditionExpression: "#pk = :pk",
      FilterExpression: filter.expression,
      ExpressionAttributeNames: { "#pk": `${index}pk`, ...(q.searchTerm ? { "#search": "search" } : {}) },
      ExpressionAttributeValues: { ":pk": pk, ...filter.values },
      ScanIndexForward: forward,
      // A search filters out most of what it reads, so it reads in larger steps.
      Limit: Math.min(budget - evaluated, Math.max(want - items.length, q.searchTerm ? 200 : 25)),
      ExclusiveStartKey: startKey,
    });
    evaluated += out.ScannedCount ?? 0;
    items.push(...((out.Items ?? []) as ErrorItem[]));
    startKey = out.LastEvaluatedKey;
  } while (startKey && items.length < want && evaluated < budget);
  // Stopped by the budget with matches still possible: resume from where the read stopped.
  return { items: items.slice(0, want), exhausted: !startKey, resumeKey: items.length < want ? startKey : undefined };
}

const keyOf = (index: string, e: ErrorItem): Key => ({ pk: e.pk, sk: e.sk, [`${index}pk`]: (e as never)[`${index}pk`], [`${index}sk`]: (e as never)[`${index}sk`] });

async function keysetPage(q: ListQuery, cursor: Cursor | undefined): Promise<ErrorPage> {
  const index = q.sort === "first_seen" ? GSI2 : GSI1;
  const pk = errorsByStatusPk(q.projectId, q.status);
  const back = cursor?.d === "p";
  const got = await collect(index, pk, back, cursor?.k, q.limit + 1, SEARCH_BUDGET, q);
  const shown = got.items.slice(0, q.limit);
  const more = got.items.length > q.limit || !!got.resumeKey;
  const errors = back ? shown.reverse() : shown;
  const first = errors[0];
  const last = errors[errors.length - 1];
  const at = (d: "n" | "p", k: Key | undefined) => (k ? encodeCursor({ s: q.sort, d, k }) : undefined);
  if (back) {
    return { errors, next: at("n", last ? keyOf(index, last) : cursor?.k), previous: more ? at("p", got.resumeKey ?? (first && keyOf(index, first))) : undefined };
  }
  return {
    errors,
    next: more ? at("n", got.resumeKey ?? (last && keyOf(index, last))) : undefined,
    previous: cursor && first ? at("p", keyOf(index, first)) : undefined,
  };
}

async function frequencyPage(q: ListQuery, cursor: Cursor | undefined): Promise<ErrorPage> {
  const got = await collect(GSI1, errorsByStatusPk(q.projectId, q.status), false, undefined, FREQUENCY_WINDOW, FREQUENCY_WINDOW, q);
  const sorted = got.items.sort((a, b) => b.eventsCount - a.eventsCount || b.lastSeen.localeCompare(a.lastSeen) || b.errorId - a.errorId);
  const offset = cursor?.o ?? 0;
  const errors = sorted.slice(offset, offset + q.limit);
  return {
    errors,
    next: offset + q.limit < sorted.length ? encodeCursor({ s: q.sort, d: "n", o: offset + q.limit }) : undefined,
    previous: offset > 0 ? encodeCursor({ s: q.sort, d: "p", o: Math.max(0, offset - q.limit) }) : undefined,
  };
}

export async function listErrors(q: ListQuery): Promise<ErrorPage> {
  const cursor = q.cursor ? decodeCursor(q.cursor, q.sort, errorsByStatusPk(q.projectId, q.status)) : undefined;
  return q.sort === "frequency" ? frequencyPage(q, cursor) : keysetPage(q, cursor);
}
