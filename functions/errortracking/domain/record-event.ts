/**
 * Counting one event, exactly once, under any number of concurrent consumers and redeliveries.
 *
 * One transaction per event:
 *   1. Put the event item, `attribute_not_exists(pk)` — it is the idempotency marker (by event id);
 *   2. Update the error: ADD `eventsCount` (and `userCount` for a new user), move its times;
 *   3. for an identified user: Put `USER#<hash>` with `attribute_not_exists` when new, else refresh it;
 *   4. ADD 1 to the error's counter of the event's hour (`HOUR#…`, the `frequency` graph);
 *   5. ADD 1 to the error's counter of the event's day (`DAY#…`, the 30-day graph).
 *   6. ADD 1 to the error's counter of each of the event's tag values (`TAG#…`, `tags.ts`), which also
 *      file the error under the event's release and environment for the list's filters.
 * Nothing is written outside the transaction, so a crash anywhere leaves either all or nothing.
 *
 * First/last seen are max/min, which an update expression cannot compute. The common case (events in
 * order) is a condition `lastSeen <= t AND firstSeen <= t AND lastReceived <= r`; when it fails (an
 * out-of-order event) the consumer reads the error and retries with a compare-and-set on the values it
 * read, moving only the bounds the event extends.
 */
import { gzipSync } from "node:zlib";
import { getItem, type TransactItem } from "../../platform/db/table.js";
import type { IngestMessage } from "./contracts.js";
import type { ParsedEvent } from "./event.js";
import { dayBucket, dayCountKey, dayOf, errorKey, hourKey, hourOf, errorsByStatusPk, eventKey, eventsOfErrorPk, expireAtFor, firstSeenSk, keyHash, lastSeenSk, userKey } from "./keys.js";
import { eventTags, tagUpdates } from "./tags.js";
import { transactUntilSettled } from "./tx.js";

export type RecordResult = "recorded" | "duplicate";

interface Bounds {
  firstSeen: string;
  lastSeen: string;
  lastReceived: string;
}

/** The error update: `known` = bounds read from the item (compare-and-set); undefined = fast path. */
function errorUpdate(pid: number, e: ParsedEvent, receivedAt: string, newUser: boolean, known?: Bounds): TransactItem {
  const v: Record<string, unknown> = { ":one": 1, ":occ": e.occurredAt, ":rec": receivedAt };
  const names: Record<string, string> = {};
  const set: string[] = ["projectId = :pid", "errorId = :eid"];
  Object.assign(v, { ":pid": pid, ":eid": e.errorId });
  const latest = () => {
    set.push("lastSeen = :occ", "lastRelease = :rel", "description = :desc", "#name = :name", "actor = :actor", "platform = :platform", "#type = :type", "#level = :level", "#search = :search", "gsi1sk = :lsk");
    Object.assign(names, { "#name": "name", "#type": "type", "#level": "level", "#search": "search" });
    Object.assign(v, { ":rel": e.release ?? "", ":desc": e.description, ":name": e.name, ":actor": e.actor, ":platform": e.platform, ":type": e.type, ":level": e.level ?? "" });
    // Lower-cased text for `search_term` (DynamoDB's `contains` is case-sensitive).
    Object.assign(v, { ":search": `${e.name} ${e.description} ${e.actor}`.toLowerCase().slice(0, 1500), ":lsk": lastSeenSk(e.occurredAt, e.errorId) });
  };
  const received = () => {
    set.push("lastReceived = :rec", "expireAt = :exp");
    v[":exp"] = expireAtFor(receivedAt);
  };
  let condition: string;
  if (!known) {
    latest();
    received();
    // A new error starts unresolved and enters both status indexes; an existing one keeps its status.
    set.push(
      "firstSeen = if_not_exists(firstSeen, :occ)",
      "firstRelease = if_not_exists(firstRelease, :rel)",
      "#status = if_not_exists(#status, :unresolved)",
      "gsi1pk = if_not_exists(gsi1pk, :spk)",
      "gsi2pk = if_not_exists(gsi2pk, :spk)",
      "gsi2sk = if_not_exists(gsi2sk, :fsk)",
    );
    names["#status"] = "status";
    Object.assign(v, { ":unresolved": "unresolved", ":spk": errorsByStatusPk(pid, "unresolved"), ":fsk": firstSeenSk(e.occurredAt, e.errorId) });
    condition = "attribute_not_exists(pk) OR (lastSeen <= :occ AND firstSeen <= :occ AND lastReceived <= :rec)";
  } else {
    if (e.occurredAt >= known.lastSeen) latest();
    if (receivedAt > known.lastReceived) received();
    if (e.occurredAt < known.firstSeen) {
      set.push("firstSeen = :occ", "firstRelease = :frel", "gsi2sk = :fsk");
      Object.assign(v, { ":frel": e.release ?? "", ":fsk": firstSeenSk(e.occurredAt, e.errorId) });
    }
    condition = "lastSeen = :kl AND firstSeen = :kf AND lastReceived = :kr";
    Object.assign(v, { ":kl": known.lastSeen, ":kf": known.firstSeen, ":kr": known.lastReceived });
  }
  const update = `SET ${set.join(", ")} ADD eventsCount :one${newUser ? ", userCount :one" : ""}`;
  return {
    Update: {
      Key: errorKey(pid, e.errorId),
      UpdateExpression: update,
      ConditionExpression: condition,
      ExpressionAttributeNames: Object.keys(names).length ? names : undefined,
      // DynamoDB rejects values the expressions do not use, and each path uses a different subset.
      ExpressionAttributeValues: Object.fromEntries(Object.entries(v).filter(([k]) => new RegExp(`${k}\\b`).test(`${update} ${condition}`))),
    },
  };
}

function eventPut(msg: IngestMessage, e: ParsedEvent, receivedAt: string): TransactItem {
  const key = eventKey(msg.projectId, msg.eventId);
  return {
    Put: {
      Item: {
        ...key,
        kind: "event",
        projectId: msg.projectId,
        errorId: e.errorId,
        eventId: msg.eventId,
        occurredAt: e.occurredAt,
        receivedAt,
        environment: e.environment,
        level: e.level,
        release: e.release,
        // The full event, compressed: typical SDK events shrink 3-5×, which is write capacity saved.
        payloadGz: gzipSync(JSON.stringify(msg.payload)),
        gsi1pk: eventsOfErrorPk(msg.projectId, e.errorId),
        // The error's events by occurrence time: its latest event is the one its `last_seen` names.
        gsi1sk: `${e.occurredAt}#${msg.eventId}`,
        ...dayBucket(receivedAt, key.pk),
        expireAt: expireAtFor(receivedAt),
      },
      ConditionExpression: "attribute_not_exists(pk)",
    },
  };
}

export async function recordEvent(msg: IngestMessage, e: ParsedEvent, receivedAt: string): Promise<RecordResult> {
  const pid = msg.projectId;
  const user = e.user ? userKey(pid, e.errorId, keyHash(e.user)) : undefined;
  // Known users are the common case: one read avoids a transaction that would fail on the marker.
  let newUser = user ? !(await getItem(user.pk, user.sk)) : false;
  let known: Bounds | undefined;
  const tags = eventTags(msg.payload, e);
  return transactUntilSettled<RecordResult>({
    build: () => {
      const items = [eventPut(msg, e, receivedAt), errorUpdate(pid, e, receivedAt, newUser, known)];
      if (user && newUser) items.push({ Put: { Item: { ...user, expireAt: expireAtFor(receivedAt) }, ConditionExpression: "attribute_not_exists(pk)" } });
      // Refreshing the TTL keeps a returning user's marker alive as long as the error gets events.
      else if (user) items.push({ Update: { Key: user, UpdateExpression: "SET expireAt = :x", ExpressionAttributeValues: { ":x": expireAtFor(receivedAt) } } });
      // Last, so the positions onCancel reads stay the same; it has no condition to fail.
      items.push({
        Update: {
          Key: hourKey(pid, e.errorId, hourOf(e.occurredAt)),
          UpdateExpression: "SET expireAt = :x ADD eventsCount :one",
          ExpressionAttributeValues: { ":x": expireAtFor(receivedAt), ":one": 1 },
        },
      });
      // The 30-day graph's daily counter: after the hour's, also without a condition.
      items.push({
        Update: {
          Key: dayCountKey(pid, e.errorId, dayOf(e.occurredAt)),
          UpdateExpression: "SET expireAt = :x ADD eventsCount :one",
          ExpressionAttributeValues: { ":x": expireAtFor(receivedAt), ":one": 1 },
        },
      });
      // The fast path's condition proves the event is the error's newest; a known older bound disproves it.
      items.push(...tagUpdates(pid, e.errorId, tags, e.occurredAt, receivedAt, !known || e.occurredAt >= known.lastSeen));
      return items;
    },
    onSuccess: () => "recorded",
    onCancel: async ([event, error, marker]) => {
      if (event === "ConditionalCheckFailed") return { done: "duplicate" };
      if (marker === "ConditionalCheckFailed") newUser = false;
      if (error === "ConditionalCheckFailed") {
        const item = await getItem<Bounds>(errorKey(pid, e.errorId).pk, "ERROR");
        // Gone (retention deleted it meanwhile): the fast path creates it again.
        known = item ? { firstSeen: item.firstSeen, lastSeen: item.lastSeen, lastReceived: item.lastReceived } : undefined;
      }
      return { retry: true };
    },
  });
}
