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
 *   7. when the project has alerting hooks with thresholds: each watched window's counter is
 *      conditioned to fail at the count that crosses a threshold. A window of an hour or a day is
 *      the hour's or the day's counter above (the same fixed UTC windows), so the default window
 *      costs no item of its own; other lengths ADD 1 to a `WIN#…` counter.
 * Nothing is written outside the transaction, so a crash anywhere leaves either all or nothing.
 *
 * First/last seen are max/min, which an update expression cannot compute. The common case (events in
 * order) is a condition `lastSeen <= t AND firstSeen <= t AND lastReceived <= r`; when it fails (an
 * out-of-order event) the consumer reads the error and retries with a compare-and-set on the values it
 * read, moving only the bounds the event extends.
 *
 * Hook triggers (`../hooks/triggers.ts`) ride on the same conditions, so they cost a round trip only
 * when they fire: a resolved error carries `reopenWatch` and the fast path requires its absence (the
 * retry removes it: a regression); with alerting hooks the fast path requires the error to exist
 * (the retry creates it: a new error); a window counter fails at a threshold's count (the retry
 * passes it: a threshold). The triggers are written on the event item, for redeliveries.
 */
import { gzipSync } from "node:zlib";
import { getItem, type TransactItem } from "../../platform/db/table.js";
import type { IngestMessage } from "./contracts.js";
import type { ParsedEvent } from "./event.js";
import { windowStartOf, NO_WATCH, type Trigger, type Watch } from "../hooks/triggers.js";
import { dayBucket, dayCountKey, dayOf, errorKey, hourKey, hourOf, errorsByStatusPk, eventKey, eventsOfErrorPk, expireAtFor, firstSeenSk, keyHash, lastSeenSk, userKey } from "./keys.js";
import { eventTags, tagUpdates } from "./tags.js";
import { transactUntilSettled } from "./tx.js";

export type RecordResult = "recorded" | "duplicate";

export interface Recorded {
  result: RecordResult;
  /** The hook triggers this event fired (for a duplicate: those its first delivery recorded). */
  triggers: Trigger[];
}

interface Bounds {
  firstSeen: string;
  lastSeen: string;
  lastReceived: string;
  /** Set while the error is resolved: the time it was resolved (see `updateStatus`). */
  reopenWatch?: string;
}

/** How the error update treats the error's existence: either way, must exist, must be created. */
type Existence = "any" | "existing" | "creating";

/**
 * The error update: `known` = bounds read from the item (compare-and-set); undefined = fast path.
 * `existence` says what the fast path assumes about the item (see the module comment).
 */
function errorUpdate(pid: number, e: ParsedEvent, receivedAt: string, newUser: boolean, known?: Bounds, existence: Existence = "any"): TransactItem {
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
    const inOrder = "(lastSeen <= :occ AND firstSeen <= :occ AND lastReceived <= :rec AND attribute_not_exists(reopenWatch))";
    condition = existence === "creating" ? "attribute_not_exists(pk)" : existence === "existing" ? `attribute_exists(pk) AND ${inOrder}` : `attribute_not_exists(pk) OR ${inOrder}`;
  } else {
    if (e.occurredAt >= known.lastSeen) latest();
    if (receivedAt > known.lastReceived) received();
    if (e.occurredAt < known.firstSeen) {
      set.push("firstSeen = :occ", "firstRelease = :frel", "gsi2sk = :fsk");
      Object.assign(v, { ":frel": e.release ?? "", ":fsk": firstSeenSk(e.occurredAt, e.errorId) });
    }
    condition = `lastSeen = :kl AND firstSeen = :kf AND lastReceived = :kr AND ${known.reopenWatch ? "reopenWatch = :kw" : "attribute_not_exists(reopenWatch)"}`;
    Object.assign(v, { ":kl": known.lastSeen, ":kf": known.firstSeen, ":kr": known.lastReceived, ":kw": known.reopenWatch });
  }
  // The first event after a resolution disarms the watch: it alone is the regression.
  const remove = known?.reopenWatch ? " REMOVE reopenWatch" : "";
  const update = `SET ${set.join(", ")}${remove} ADD eventsCount :one${newUser ? ", userCount :one" : ""}`;
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

function eventPut(msg: IngestMessage, e: ParsedEvent, receivedAt: string, triggers: Trigger[]): TransactItem {
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
        ...(triggers.length ? { hookTriggers: triggers } : {}),
      },
      ConditionExpression: "attribute_not_exists(pk)",
    },
  };
}

/** Window lengths whose counter is one the graphs already keep (`HOUR#…`, `DAY#…`): same fixed UTC windows. */
const HOUR_SECONDS = 3600;
const DAY_SECONDS = 86400;

/** The item counting an error's events in the watched window an event falls in. */
function windowCounterKey(pid: number, e: ParsedEvent, seconds: number): { pk: string; sk: string } {
  if (seconds === HOUR_SECONDS) return hourKey(pid, e.errorId, hourOf(e.occurredAt));
  if (seconds === DAY_SECONDS) return dayCountKey(pid, e.errorId, dayOf(e.occurredAt));
  return { pk: errorKey(pid, e.errorId).pk, sk: `WIN#${seconds}#${windowStartOf(e.occurredAt, seconds)}` };
}

/**
 * ADD 1 to a counter. When it is a watched window's, the update fails at a threshold's count unless
 * `passing` (the count read after such a failure) says this event is the one that crosses it.
 */
function counterUpdate(key: { pk: string; sk: string }, receivedAt: string, window?: Watch["windows"][number], passing?: number): TransactItem {
  const values: Record<string, unknown> = { ":x": expireAtFor(receivedAt), ":one": 1 };
  let condition: string | undefined;
  if (window && passing !== undefined) {
    condition = "eventsCount = :n";
    values[":n"] = passing;
  } else if (window) {
    window.thresholds.forEach((t, i) => (values[`:t${i}`] = t));
    condition = `attribute_not_exists(eventsCount) OR NOT (eventsCount IN (${window.thresholds.map((_, i) => `:t${i}`).join(", ")}))`;
  }
  return { Update: { Key: key, UpdateExpression: "SET expireAt = :x ADD eventsCount :one", ...(condition ? { ConditionExpression: condition } : {}), ExpressionAttributeValues: values } };
}

export async function recordEvent(msg: IngestMessage, e: ParsedEvent, receivedAt: string, watch: Watch = NO_WATCH): Promise<Recorded> {
  const pid = msg.projectId;
  const user = e.user ? userKey(pid, e.errorId, keyHash(e.user)) : undefined;
  // Known users are the common case: one read avoids a transaction that would fail on the marker.
  let newUser = user ? !(await getItem(user.pk, user.sk)) : false;
  let known: Bounds | undefined;
  const tags = eventTags(msg.payload, e);
  let existence: Existence = watch.detectNew ? "existing" : "any";
  /** Per watched window: the count this event passes (a threshold crossed), once read. */
  const passing = new Map<number, number>();
  /** Per watched window: where its counter sits in the transaction (for onCancel). */
  const windowsAt = new Map<number, number>();
  const triggers = (): Trigger[] => {
    const out: Trigger[] = [];
    if (existence === "creating") out.push({ kind: "new_error", errorId: e.errorId });
    if (known?.reopenWatch) out.push({ kind: "regression", errorId: e.errorId, resolvedAt: known.reopenWatch });
    for (const w of watch.windows) {
      const n = passing.get(w.seconds);
      if (n !== undefined && w.thresholds.includes(n)) out.push({ kind: "threshold", errorId: e.errorId, windowSeconds: w.seconds, windowStart: windowStartOf(e.occurredAt, w.seconds), threshold: n });
    }
    return out;
  };
  return transactUntilSettled<Recorded>({
    build: () => {
      const items = [eventPut(msg, e, receivedAt, triggers()), errorUpdate(pid, e, receivedAt, newUser, known, existence)];
      if (user && newUser) items.push({ Put: { Item: { ...user, expireAt: expireAtFor(receivedAt) }, ConditionExpression: "attribute_not_exists(pk)" } });
      // Refreshing the TTL keeps a returning user's marker alive as long as the error gets events.
      else if (user) items.push({ Update: { Key: user, UpdateExpression: "SET expireAt = :x", ExpressionAttributeValues: { ":x": expireAtFor(receivedAt) } } });
      // After the three above, so the positions onCancel reads stay the same. The hour's and the
      // day's counters (the graphs) double as the watched windows of those lengths.
      const watched = (seconds: number) => watch.windows.find((w) => w.seconds === seconds);
      const counter = (seconds: number, key: { pk: string; sk: string }) => {
        const window = watched(seconds);
        if (window) windowsAt.set(seconds, items.length);
        items.push(counterUpdate(key, receivedAt, window, passing.get(seconds)));
      };
      windowsAt.clear();
      counter(HOUR_SECONDS, hourKey(pid, e.errorId, hourOf(e.occurredAt)));
      counter(DAY_SECONDS, dayCountKey(pid, e.errorId, dayOf(e.occurredAt)));
      // The fast path's condition proves the event is the error's newest; a known older bound disproves it.
      items.push(...tagUpdates(pid, e.errorId, tags, e.occurredAt, receivedAt, !known || e.occurredAt >= known.lastSeen));
      for (const w of watch.windows) if (w.seconds !== HOUR_SECONDS && w.seconds !== DAY_SECONDS) counter(w.seconds, windowCounterKey(pid, e, w.seconds));
      return items;
    },
    onSuccess: () => ({ result: "recorded", triggers: triggers() }),
    onCancel: async (codes) => {
      const [event, error, marker] = codes;
      if (event === "ConditionalCheckFailed") return { done: { result: "duplicate", triggers: await recordedTriggers(msg) } };
      // Without a user, position 2 is the hour's counter, whose condition is a threshold's.
      if (user && marker === "ConditionalCheckFailed") newUser = false;
      if (error === "ConditionalCheckFailed") {
        const item = await getItem<Bounds>(errorKey(pid, e.errorId).pk, "ERROR");
        // Gone (retention deleted it meanwhile, or never there): the fast path creates it.
        known = item ? { firstSeen: item.firstSeen, lastSeen: item.lastSeen, lastReceived: item.lastReceived, reopenWatch: item.reopenWatch } : undefined;
        // With hooks watching, an absent error is created under `attribute_not_exists`: a new error.
        existence = item ? "any" : watch.detectNew ? "creating" : "any";
      }
      for (const [seconds, at] of windowsAt) {
        if (codes[at] !== "ConditionalCheckFailed") continue;
        const key = windowCounterKey(pid, e, seconds);
        const counter = await getItem<{ eventsCount?: number }>(key.pk, key.sk);
        passing.set(seconds, counter?.eventsCount ?? 0);
      }
      return { retry: true };
    },
  });
}

/** The triggers the first delivery of this message wrote on its event item. */
async function recordedTriggers(msg: IngestMessage): Promise<Trigger[]> {
  const key = eventKey(msg.projectId, msg.eventId);
  return (await getItem<{ hookTriggers?: Trigger[] }>(key.pk, key.sk))?.hookTriggers ?? [];
}
