/**
 * One error (a group of events): its item, its latest event, its status, and the release health of
 * the releases it was seen in.
 */
import { gunzipSync } from "node:zlib";
import { docQuery } from "../../platform/db/document.js";
import { resources } from "../../platform/resources.js";
import { getItem, updateItem, isConditionFailure, GSI1 } from "../../platform/db/table.js";
import type { ErrorIdentity } from "./event.js";
import { errorKey, errorsByStatusPk, eventsOfErrorPk, releaseKey, type ErrorStatus } from "./keys.js";

export interface ErrorItem extends ErrorIdentity {
  pk: string;
  sk: string;
  projectId: number;
  level?: string;
  status: ErrorStatus;
  firstSeen: string;
  lastSeen: string;
  lastReceived: string;
  eventsCount: number;
  userCount?: number;
  firstRelease?: string;
  lastRelease?: string;
  expireAt?: number;
}

export interface StoredEvent {
  eventId: string;
  errorId: number;
  occurredAt: string;
  receivedAt: string;
  payload: Record<string, unknown>;
}

const live = (item: { expireAt?: number } | undefined, now = Date.now()) => !!item && (item.expireAt === undefined || item.expireAt * 1000 > now);

export async function getError(projectId: number, errorId: number): Promise<ErrorItem | undefined> {
  const key = errorKey(projectId, errorId);
  const item = await getItem<ErrorItem>(key.pk, key.sk);
  return live(item) ? item : undefined;
}

/** The event that occurred last (the one the error's `last_seen` names; GOB's "newest event"). */
export async function latestEvent(projectId: number, errorId: number): Promise<StoredEvent | undefined> {
  const out = await docQuery({
    TableName: resources.mainTable(),
    IndexName: GSI1,
    KeyConditionExpression: "gsi1pk = :pk",
    ExpressionAttributeValues: { ":pk": eventsOfErrorPk(projectId, errorId) },
    ScanIndexForward: false,
    Limit: 1,
  });
  const item = out.Items?.[0];
  return item ? storedEvent(item) : undefined;
}

/** An event item as stored (`record-events.ts`), its payload decompressed. */
export function storedEvent(item: Record<string, any>): StoredEvent {
  const payload = JSON.parse(gunzipSync(item.payloadGz as Uint8Array).toString("utf8")) as Record<string, unknown>;
  return { eventId: item.eventId, errorId: item.errorId, occurredAt: item.occurredAt, receivedAt: item.receivedAt, payload };
}

/** Moves the error to another status range. Undefined when the error does not exist. */
export async function updateStatus(projectId: number, errorId: number, status: ErrorStatus): Promise<ErrorItem | undefined> {
  const key = errorKey(projectId, errorId);
  try {
    const out = await updateItem({
      ...key,
      // Resolving arms the regression watch (the next event's transaction disarms it and fires the
      // error tracking hooks, see `record-events.ts`); any other status drops it.
      update: status === "resolved" ? "SET #s = :s, gsi1pk = :p, gsi2pk = :p, reopenWatch = :w" : "SET #s = :s, gsi1pk = :p, gsi2pk = :p REMOVE reopenWatch",
      condition: "attribute_exists(pk)",
      names: { "#s": "status" },
      values: { ":s": status, ":p": errorsByStatusPk(projectId, status), ...(status === "resolved" ? { ":w": new Date().toISOString() } : {}) },
    });
    return out as ErrorItem | undefined;
  } catch (err) {
    if (isConditionFailure(err)) return undefined;
    throw err;
  }
}

export interface ReleaseHealth {
  version: string;
  sessions: number;
  errored_sessions: number;
  crashed_sessions: number;
  abnormal_sessions: number;
  /** 1 − crashed / sessions; null before any session. */
  crash_free_sessions: number | null;
}

export async function releaseHealth(projectId: number, versions: string[]): Promise<ReleaseHealth[]> {
  const unique = [...new Set(versions.filter((v) => v))];
  const items = await Promise.all(unique.map((v) => getItem<Record<string, number>>(releaseKey(projectId, v).pk, releaseKey(projectId, v).sk, false)));
  return unique.map((version, i) => {
    const r = items[i] ?? {};
    const sessions = r.sessions ?? 0;
    const crashed = r.crashed ?? 0;
    return {
      version,
      sessions,
      errored_sessions: r.errored ?? 0,
      crashed_sessions: crashed,
      abnormal_sessions: r.abnormal ?? 0,
      crash_free_sessions: sessions > 0 ? Math.max(0, 1 - crashed / sessions) : null,
    };
  });
}
