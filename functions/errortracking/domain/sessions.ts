/**
 * Release health from session updates (Python, Rust, Node…): per release, how many sessions there
 * were and how many errored, crashed or ended abnormally; crash-free = 1 − crashed / sessions.
 *
 * A session (`sid`) sends several updates (`init`, `ok` with `errors: 1`, `exited`/`crashed`), so the
 * counters move only when a session is first seen or first reaches a state. The session item holds
 * those flags and a version; one transaction puts the idempotency marker, compare-and-sets the
 * session item, and ADDs the deltas to the release's counters. Aggregates (`sessions` items from
 * request-mode SDKs) are already counts: they are added once per message, guarded by the marker.
 */
import { getItem } from "../../platform/db/table.js";
import type { IngestMessage } from "./contracts.js";
import { dayBucket, eventKey, expireAtFor, releaseKey, sessionKey } from "./keys.js";
import { transactUntilSettled } from "./tx.js";
import type { RecordResult } from "./record-events.js";

type Obj = Record<string, unknown>;
interface Flags {
  errored: boolean;
  crashed: boolean;
  abnormal: boolean;
}
interface SessionItem extends Flags {
  version: number;
}
export interface Deltas {
  sessions: number;
  errored: number;
  crashed: number;
  abnormal: number;
}

const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0);

export function flagsOf(update: Obj): Flags {
  const status = String(update.status ?? "ok");
  const crashed = status === "crashed";
  const abnormal = status === "abnormal";
  return { crashed, abnormal, errored: crashed || abnormal || num(update.errors) > 0 };
}

/** What one update adds, given what the session had already reported. */
export function deltasOf(prev: Flags | undefined, next: Flags): Deltas {
  const rise = (k: keyof Flags) => (next[k] && !prev?.[k] ? 1 : 0);
  return { sessions: prev ? 0 : 1, errored: rise("errored"), crashed: rise("crashed"), abnormal: rise("abnormal") };
}

export function aggregateDeltas(aggregates: unknown[]): Deltas {
  const d: Deltas = { sessions: 0, errored: 0, crashed: 0, abnormal: 0 };
  for (const a of aggregates) {
    const b = (a && typeof a === "object" ? a : {}) as Obj;
    const [exited, errored, crashed, abnormal] = [num(b.exited), num(b.errored), num(b.crashed), num(b.abnormal)];
    d.sessions += exited + errored + crashed + abnormal;
    d.errored += errored + crashed + abnormal;
    d.crashed += crashed;
    d.abnormal += abnormal;
  }
  return d;
}

function releaseUpdate(pid: number, release: string, d: Deltas, receivedAt: string) {
  const key = releaseKey(pid, release);
  return {
    Update: {
      Key: key,
      UpdateExpression: "SET projectId = :p, #rel = :r, updatedAt = :t, gsi2pk = :g2p, gsi2sk = :g2s, expireAt = :x ADD #sessions :s, errored :e, crashed :c, abnormal :a",
      ExpressionAttributeNames: { "#rel": "release", "#sessions": "sessions" },
      ExpressionAttributeValues: {
        ":p": pid, ":r": release, ":t": receivedAt, ":g2p": dayBucket(receivedAt, key.pk).gsi2pk, ":g2s": dayBucket(receivedAt, key.pk).gsi2sk,
        ":x": expireAtFor(receivedAt), ":s": d.sessions, ":e": d.errored, ":c": d.crashed, ":a": d.abnormal,
      },
    },
  };
}

export async function recordSession(msg: IngestMessage, receivedAt: string): Promise<RecordResult> {
  const p = msg.payload;
  const attrs = (p.attrs && typeof p.attrs === "object" ? p.attrs : {}) as Obj;
  const release = typeof attrs.release === "string" && attrs.release ? attrs.release.slice(0, 200) : undefined;
  const marker = eventKey(msg.projectId, msg.eventId);
  const markerPut = { Put: { Item: { ...marker, kind: "session", projectId: msg.projectId, receivedAt, ...dayBucket(receivedAt, marker.pk), expireAt: expireAtFor(receivedAt) }, ConditionExpression: "attribute_not_exists(pk)" } };
  const sid = typeof p.sid === "string" && p.sid ? p.sid.slice(0, 64) : undefined;
  // Sentry ignores sessions without a release (release health is per release); so do we, once.
  if (!release || (!sid && !Array.isArray(p.aggregates))) {
    return transactUntilSettled<RecordResult>({ build: () => [markerPut], onSuccess: () => "recorded", onCancel: () => ({ done: "duplicate" }) });
  }
  if (Array.isArray(p.aggregates)) {
    const d = aggregateDeltas(p.aggregates);
    return transactUntilSettled<RecordResult>({
      build: () => [markerPut, releaseUpdate(msg.projectId, release, d, receivedAt)],
      onSuccess: () => "recorded",
      onCancel: () => ({ done: "duplicate" }),
    });
  }
  const key = sessionKey(msg.projectId, sid!);
  const incoming = flagsOf(p);
  let prev = await getItem<SessionItem>(key.pk, key.sk);
  return transactUntilSettled<RecordResult>({
    build: () => {
      const next: Flags = { errored: incoming.errored || !!prev?.errored, crashed: incoming.crashed || !!prev?.crashed, abnormal: incoming.abnormal || !!prev?.abnormal };
      const d = deltasOf(prev, next);
      const version = (prev?.version ?? 0) + 1;
      const sessionPut = {
        Put: {
          Item: { ...key, projectId: msg.projectId, release, ...next, version, updatedAt: receivedAt, ...dayBucket(receivedAt, key.pk), expireAt: expireAtFor(receivedAt) },
          ConditionExpression: prev ? "#version = :v" : "attribute_not_exists(pk)",
          ExpressionAttributeNames: prev ? { "#version": "version" } : undefined,
          ExpressionAttributeValues: prev ? { ":v": prev.version } : undefined,
        },
      };
      return [markerPut, sessionPut, releaseUpdate(msg.projectId, release, d, receivedAt)];
    },
    onSuccess: () => "recorded",
    onCancel: async ([m]) => {
      if (m === "ConditionalCheckFailed") return { done: "duplicate" };
      prev = await getItem<SessionItem>(key.pk, key.sk);
      return { retry: true };
    },
  });
}
