/**
 * DynamoDB keys of error tracking beyond the two in `contracts.ts` (setting, client key), named by the
 * access pattern that reads them.
 *
 * | item                  | pk                          | sk           | gsi1pk / gsi1sk                              | gsi2pk / gsi2sk                        |
 * |-----------------------|-----------------------------|--------------|----------------------------------------------|----------------------------------------|
 * | error (a group)       | ETERR#<pid>#<errorId>       | ERROR        | ETERRS#<pid>#<status> / <lastSeen>#<id>      | ETERRS#<pid>#<status> / <firstSeen>#<id> |
 * | user of an error (+ its `user` tag count) | ETERR#<pid>#<errorId> | USER#<hash> |                     |                                        |
 * | events of an hour     | ETERR#<pid>#<errorId>       | HOUR#<yyyy-mm-ddThh> |                                      |                                        |
 * | events of a day       | ETERR#<pid>#<errorId>       | DAY#<yyyy-mm-dd> |                                          |                                        |
 * | a tag value's count   | ETERR#<pid>#<errorId>       | TAG#<key>#<hash> | release/environment only: ETERRF#<pid>#<key>#<value> / <lastSeen>#<id> | same pk / <firstSeen>#<id> (`tags.ts`) |
 * | event (+ idempotency) | ETEVENT#<pid>#<eventId>     | EVENT        | ETERR#<pid>#<errorId> / <occurredAt>#<evId>  | ETDAY#<day> / <receivedAt>#<pk>        |
 * | session update marker | ETEVENT#<pid>#<eventId>     | EVENT        |                                              | ETDAY#<day> / <receivedAt>#<pk>        |
 * | session (one sid)     | ETSESSION#<pid>#<sid>       | SESSION      |                                              | ETDAY#<day> / <updatedAt>#<pk>         |
 * | release health        | ETREL#<pid>                 | REL#<release>|                                              | ETDAY#<day> / <updatedAt>#<pk>         |
 * | retention cursor      | ETRETENTION                 | SWEPT        |                                              |                                        |
 *
 * - The event item doubles as the idempotency marker: it is put with `attribute_not_exists(pk)` in
 *   the same transaction as the counters, so a redelivered message can never count twice.
 * - gsi1 of errors gives `last_seen` order per status; gsi2 gives `first_seen` order. `frequency` is a
 *   bounded read of the gsi1 range sorted in memory (see `read.ts`).
 * - gsi2 `ETDAY#<yyyy-mm-dd>` (UTC day the service received the item) is the retention time index:
 *   retention Queries whole expired days, never scans. Errors are not in it: an error goes when its
 *   last event does (retention checks `lastReceived`).
 */
import { createHash } from "node:crypto";

export type ErrorStatus = "unresolved" | "resolved" | "ignored";
export const STATUSES: readonly ErrorStatus[] = ["unresolved", "resolved", "ignored"];

/** Fixed width so the lexical order of `<time>#<id>` sort keys is time order, then id order. */
const padId = (n: number) => n.toString().padStart(16, "0");

export const errorKey = (projectId: number, errorId: number) => ({ pk: `ETERR#${projectId}#${errorId}`, sk: "ERROR" });
export const errorsByStatusPk = (projectId: number, status: ErrorStatus) => `ETERRS#${projectId}#${status}`;
export const lastSeenSk = (lastSeen: string, errorId: number) => `${lastSeen}#${padId(errorId)}`;
export const firstSeenSk = (firstSeen: string, errorId: number) => `${firstSeen}#${padId(errorId)}`;

/**
 * An error's events in one UTC hour of their own timestamps (Sentry buckets `stats` the same way):
 * counted in the event's transaction, read as a bounded range for the `frequency` graph.
 */
export const HOUR_PREFIX = "HOUR#";
export const hourOf = (iso: string) => iso.slice(0, 13);
export const hourKey = (projectId: number, errorId: number, hour: string) => ({ pk: `ETERR#${projectId}#${errorId}`, sk: `${HOUR_PREFIX}${hour}` });

/** The same per UTC day, for the 30-day graph of the detail page (at most 30 items read). */
export const DAY_COUNT_PREFIX = "DAY#";
export const dayCountKey = (projectId: number, errorId: number, day: string) => ({ pk: `ETERR#${projectId}#${errorId}`, sk: `${DAY_COUNT_PREFIX}${day}` });

/**
 * A user of an error (counted once in the error's `userCount`), which also holds the `user` tag's
 * value for them: `tagKey`, `tagValue`, `eventsCount`, first/last seen (`tags.ts`).
 */
export const USER_PREFIX = "USER#";
export const userKey = (projectId: number, errorId: number, userHash: string) => ({ pk: `ETERR#${projectId}#${errorId}`, sk: `${USER_PREFIX}${userHash}` });

export const eventKey = (projectId: number, eventId: string) => ({ pk: `ETEVENT#${projectId}#${eventId}`, sk: "EVENT" });
export const eventsOfErrorPk = (projectId: number, errorId: number) => `ETERR#${projectId}#${errorId}`;

export const sessionKey = (projectId: number, sid: string) => ({ pk: `ETSESSION#${projectId}#${sid}`, sk: "SESSION" });
export const releaseKey = (projectId: number, release: string) => ({ pk: `ETREL#${projectId}`, sk: `REL#${release}` });

export const RETENTION_DAYS = 90;
/** The newest day bucket retention has emptied (one item for the whole service). */
export const retentionCursorKey = { pk: "ETRETENTION", sk: "SWEPT" };
const DAY_MS = 86_400_000;

export const dayOf = (iso: string) => iso.slice(0, 10);
export const dayBucketPk = (day: string) => `ETDAY#${day}`;
/** gsi2 attributes that file an item under the day it was received (the retention index). */
export const dayBucket = (receivedAt: string, pk: string) => ({ gsi2pk: dayBucketPk(dayOf(receivedAt)), gsi2sk: `${receivedAt}#${pk}` });
/** DynamoDB TTL backstop (epoch seconds): retention deletes first; TTL catches anything it missed. */
export const expireAtFor = (receivedAt: string) => Math.floor((Date.parse(receivedAt) + RETENTION_DAYS * DAY_MS) / 1000);

/** Short stable hash for keys built from user data (keeps e-mail and IP addresses out of keys). */
export const keyHash = (value: string) => createHash("sha256").update(value).digest("hex").slice(0, 32);
