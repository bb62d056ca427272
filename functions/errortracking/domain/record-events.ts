/**
 * Counting a batch's events of one error, exactly once, under any number of concurrent consumers
 * and redeliveries, with writes that grow with the batch's distinct values, not with its events.
 *
 * A storm (one error, thousands of events a second) is the burst an error tracker sees most, and
 * every event of it touches the same error item and the same hour, day and tag counters. One
 * transaction per event would write those hot items once per event (DynamoDB allows ~1,000 writes a
 * second on one item, and concurrent transactions on it cancel each other). So the consumer groups a
 * batch by error (`process.ts`), and here each group is written in as few transactions as
 * DynamoDB's 100 actions allow, each holding:
 *   1. a Put of each event's own item, `attribute_not_exists(pk)`: the idempotency marker (by event id);
 *   2. one Update of the error: ADD `eventsCount` :n and `userCount` :new users, first/last seen;
 *   3. one Update per touched user: the user's marker, which is also the `user` tag's value item
 *      (ADD :n); for a user new to the error it is conditioned on `attribute_not_exists`, which is
 *      what counts the user once;
 *   4. one ADD :n per touched hour (`HOUR#…`, the 24 h graph) and day (`DAY#…`, the 30-day graph);
 *   5. one ADD :n per touched value of the other tags (`TAG#…`, `tags.ts`; release and environment
 *      also file the error for the list's filters);
 *   6. for hooks with thresholds, one ADD :n per touched window of another length (`WIN#…`); a window
 *      of an hour or a day is that hour's or day's counter.
 * A transaction's aggregates count only its own events, so a crash between two transactions of one
 * group leaves the first counted with its markers, and the redelivery counts the rest.
 *
 * The group's state is read first, in one BatchGetItem (strongly consistent): the error's bounds,
 * the markers of its users and the counters of watched windows. The writes are conditioned on what
 * they assumed of it, so they commute with a concurrent consumer where they can (ADD, monotone
 * bounds) and are cancelled where they cannot (a user counted meanwhile, a watched counter moved).
 * A cancellation's reasons (one code per action, in order) say what to do: an event put that failed
 * is a duplicate (dropped, the rest retried), any other failed condition means the state moved (read
 * again, retried), a `TransactionConflict` is a concurrent transaction on the same items (jittered
 * backoff, retried without limit until the consumer's own deadline: a conflict never dead-letters;
 * throttling likewise), and any other reason fails the group's messages (`readCancellation`).
 *
 * First/last seen are max/min, which an update expression cannot compute: the bounds read give the
 * values to set, and the condition `lastSeen <= :newest` (the oldest newest-time the chunk claims,
 * or the last seen the group's own earlier chunk wrote: `GroupState.claims`) proves that no event
 * newer than the group's was counted meanwhile.
 *
 * Hook triggers (`../hooks/triggers.ts`) fall out of the state read: the group that creates its
 * error (under `attribute_not_exists(pk)`) fires `new_error` on its first event; the first group
 * after a resolution removes `reopenWatch` (conditioned on it) and fires `regression`; a watched
 * counter read at c and advanced by n fires each threshold T with c ≤ T < c + n, on the event that
 * takes it past T, conditioned on the counter still being c (when none is crossed, on the events
 * crossing none from whatever the count is by then, so that adds commute). Each trigger is written
 * on its event's item, so a redelivered message enqueues its triggers again (their delivery ids are
 * the same).
 */
import { getItems, transact, type TransactItem } from "../../platform/db/table.js";
import { faultPoint } from "../../platform/fault-injection.js";
import type { IngestMessage } from "./contracts.js";
import type { ParsedEvent } from "./event.js";
import { windowStartOf, type Trigger, type Watch } from "../hooks/triggers.js";
import { dayBucket, dayCountKey, dayOf, errorKey, errorsByStatusPk, eventKey, eventsOfErrorPk, expireAtFor, firstSeenSk, hourKey, hourOf, keyHash, lastSeenSk, userKey } from "./keys.js";
import { tagUpdate, type TagValueDelta } from "./tags.js";
import { cancellationCodes } from "./tx.js";

export type RecordResult = "recorded" | "duplicate";

export interface Recorded {
  result: RecordResult;
  /** The hook triggers this event fired (for a duplicate: none here; `process.ts` reads those its first delivery recorded). */
  triggers: Trigger[];
}

/** One event of a group, parsed once by the consumer. */
export interface GroupEvent {
  msg: IngestMessage;
  e: ParsedEvent;
  receivedAt: string;
  /** Sentry's tags of the event (`eventTags`). */
  tags: Array<[string, string]>;
  /** The event as its item stores it, compressed once however often its transaction is retried. */
  payloadGz: Buffer;
}

/** DynamoDB's limits on one TransactWriteItems: 100 actions, 4 MB in all (some room kept for expressions). */
const MAX_TRANSACTION_ACTIONS = 100;
const MAX_TRANSACTION_BYTES = 3_500_000;
/** Hour and day windows are the graphs' own counters (the same fixed UTC windows). */
const HOUR_SECONDS = 3600;
const DAY_SECONDS = 86400;

interface Bounds {
  firstSeen: string;
  lastSeen: string;
  lastReceived: string;
  /** Set while the error is resolved: the time it was resolved (see `updateStatus`). */
  reopenWatch?: string;
}

/** What the group's writes assume, read in one round trip and kept up to date as chunks commit. */
interface GroupState {
  error?: Bounds;
  /**
   * Once one of the group's own transactions has moved the error's last seen: the last seen it
   * moved it from (what the group's tag values count as newest against; "" for an error the group
   * created), and the last seen it wrote (which the later transactions' conditions accept as ours).
   * Chunks are cut by tag values, not by time, so a later chunk's values may be older than an
   * earlier chunk's newest event and still be the newest of their own.
   */
  claims?: { base: string; own: string };
  /** User hash → whether the error has counted the user. */
  users: Map<string, boolean>;
  /** Watched counter (`pk sk`) → its count. */
  counters: Map<string, number>;
}

type Key = { pk: string; sk: string };
const keyId = (k: Key) => `${k.pk} ${k.sk}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const byTime = (a: GroupEvent, b: GroupEvent) => a.e.occurredAt.localeCompare(b.e.occurredAt) || a.msg.eventId.localeCompare(b.msg.eventId);
const maxOf = (xs: string[]) => xs.reduce((m, x) => (x > m ? x : m));
const userHash = (ev: GroupEvent) => (ev.e.user ? keyHash(ev.e.user) : undefined);
/**
 * The tag values an event adds to, by item: `USER <hash>` for its user (the user's marker, which
 * counts the user too, so it is there whenever the event names a user), `TAG <key>=<value>` for the others.
 */
function tagItems(ev: GroupEvent): Array<[string, string, string]> {
  // An event with a user counts its `user` tag on the user's marker; without one, an SDK's own
  // `user` tag is an ordinary tag.
  const items = ev.tags.filter(([key]) => key !== "user" || !ev.e.user).map(([key, value]): [string, string, string] => [`TAG ${key}\u0000${value}`, key, value]);
  if (ev.e.user) items.push([`USER ${userHash(ev)}`, "user", ev.tags.find(([key]) => key === "user")?.[1] ?? ev.e.user]);
  return items;
}
/**
 * The order chunks are cut in: events with the same tag values together, then by time. A chunk's
 * cost is its events plus its distinct values, so a storm's users (each seen a few times in a batch)
 * cost one write each per chunk rather than one per event. A value's times are therefore the whole
 * group's (`valueTimes`), whichever chunk writes it.
 */
const signature = (ev: GroupEvent) => ev.tags.map(([k, v]) => `${k}=${v}`).join("\u0000");
type Pending = GroupEvent & { signature: string };
const byValuesThenTime = (a: Pending, b: Pending) => (a.signature < b.signature ? -1 : a.signature > b.signature ? 1 : byTime(a, b));

/** Per tag value (`tagItems`' item), the oldest and newest occurrence and the latest receipt among the group's events. */
type ValueTimes = Map<string, { first: string; last: string; received: string }>;

function valueTimesOf(events: GroupEvent[]): ValueTimes {
  const times: ValueTimes = new Map();
  for (const ev of events) {
    const at = ev.e.occurredAt;
    for (const [item] of tagItems(ev)) {
      const t = times.get(item);
      if (!t) times.set(item, { first: at, last: at, received: ev.receivedAt });
      else Object.assign(t, { first: at < t.first ? at : t.first, last: at > t.last ? at : t.last, received: ev.receivedAt > t.received ? ev.receivedAt : t.received });
    }
  }
  return times;
}

/** The counter an event adds to in a watched window of `seconds`. */
function windowKey(pid: number, ev: GroupEvent, seconds: number): Key {
  if (seconds === HOUR_SECONDS) return hourKey(pid, ev.e.errorId, hourOf(ev.e.occurredAt));
  if (seconds === DAY_SECONDS) return dayCountKey(pid, ev.e.errorId, dayOf(ev.e.occurredAt));
  return { pk: errorKey(pid, ev.e.errorId).pk, sk: `WIN#${seconds}#${windowStartOf(ev.e.occurredAt, seconds)}` };
}

async function readState(pid: number, errorId: number, events: GroupEvent[], watch: Watch): Promise<GroupState> {
  const users = [...new Set(events.map(userHash).filter((h): h is string => !!h))];
  const counters = [...new Map(events.flatMap((ev) => watch.windows.map((w) => windowKey(pid, ev, w.seconds))).map((k) => [keyId(k), k])).values()];
  const keys: Key[] = [errorKey(pid, errorId), ...users.map((h) => userKey(pid, errorId, h)), ...counters];
  const [error, ...rest] = await getItems<Record<string, unknown>>(keys, true);
  const markers = rest.slice(0, users.length);
  return {
    error: error ? { firstSeen: String(error.firstSeen), lastSeen: String(error.lastSeen), lastReceived: String(error.lastReceived), reopenWatch: error.reopenWatch as string | undefined } : undefined,
    users: new Map(users.map((h, i) => [h, !!markers[i]])),
    counters: new Map(counters.map((k, i) => [keyId(k), Number(rest[users.length + i]?.eventsCount ?? 0)])),
  };
}

/**
 * The longest prefix of `events` whose transaction fits DynamoDB's limits: each event's put, plus
 * one action per distinct error, hour, day, user, tag value and watched window among them.
 */
function chunkOf(pid: number, events: GroupEvent[], watch: Watch): GroupEvent[] {
  const aggregates = new Set<string>(["error"]);
  let bytes = 0;
  let taken = 0;
  for (const ev of events) {
    const { errorId, occurredAt } = ev.e;
    const keys = [hourKey(pid, errorId, hourOf(occurredAt)), dayCountKey(pid, errorId, dayOf(occurredAt)), ...watch.windows.map((w) => windowKey(pid, ev, w.seconds))].map(keyId);
    keys.push(...tagItems(ev).map(([item]) => item));
    const fresh = new Set(keys.filter((k) => !aggregates.has(k)));
    const size = ev.payloadGz.byteLength + 1024;
    if (taken > 0 && (taken + 1 + aggregates.size + fresh.size > MAX_TRANSACTION_ACTIONS || bytes + size > MAX_TRANSACTION_BYTES)) break;
    for (const k of fresh) aggregates.add(k);
    bytes += size;
    taken++;
  }
  return events.slice(0, Math.max(taken, 1));
}

interface Plan {
  items: TransactItem[];
  /** Per event id, the triggers it fires. */
  triggers: Map<string, Trigger[]>;
  /** The state once the transaction has committed. */
  after: GroupState;
  /** Index in `items` of each event's put. */
  eventAt: Map<number, string>;
}

/** The transaction that counts `chunk` (one error's events) on top of `state`. */
function planChunk(pid: number, errorId: number, chunk: GroupEvent[], state: GroupState, watch: Watch, valueTimes: ValueTimes): Plan {
  const ordered = [...chunk].sort(byTime);
  const first = ordered[0]!;
  const last = ordered[ordered.length - 1]!;
  const maxReceived = maxOf(chunk.map((ev) => ev.receivedAt));
  const triggers = new Map<string, Trigger[]>();
  const fire = (ev: GroupEvent, t: Trigger) => triggers.set(ev.msg.eventId, [...(triggers.get(ev.msg.eventId) ?? []), t]);
  const after: GroupState = { error: state.error && { ...state.error }, users: new Map(state.users), counters: new Map(state.counters), claims: state.claims };

  // Tag values (users among them): their counts among the chunk's events, their times the group's.
  const tags = new Map<string, TagValueDelta & { user?: string }>();
  for (const ev of chunk) {
    for (const [item, key, value] of tagItems(ev)) {
      const t = tags.get(item);
      if (!t) tags.set(item, { key, value, n: 1, ...valueTimes.get(item)!, user: item.startsWith("USER ") ? userHash(ev) : undefined });
      else t.n++;
    }
  }
  // A user new to the error is counted by the condition on its marker.
  const users = [...tags.values()].filter((t) => t.user);
  const newUsers = users.filter((t) => !state.users.get(t.user!)).length;
  // A value's last seen moves to its newest event here when that is newer than anything the error
  // had counted before this group moved it; the error's condition then proves it (`:newest`).
  const known = state.error;
  const isNewest = (t: string) => !known || t >= (state.claims?.base ?? known.lastSeen);

  // Counters: hours and days (the graphs), watched windows of other lengths; ADD n each.
  const counters = new Map<string, { key: Key; n: number; received: string; events: GroupEvent[]; window?: Watch["windows"][number] }>();
  const add = (key: Key, ev: GroupEvent, window?: Watch["windows"][number]) => {
    const id = keyId(key);
    const c = counters.get(id) ?? { key, n: 0, received: ev.receivedAt, events: [] };
    c.n++;
    c.events.push(ev);
    if (ev.receivedAt > c.received) c.received = ev.receivedAt;
    if (window) c.window = window;
    counters.set(id, c);
  };
  const watched = (seconds: number) => watch.windows.find((w) => w.seconds === seconds);
  for (const ev of chunk) {
    add(hourKey(pid, errorId, hourOf(ev.e.occurredAt)), ev, watched(HOUR_SECONDS));
    add(dayCountKey(pid, errorId, dayOf(ev.e.occurredAt)), ev, watched(DAY_SECONDS));
    for (const w of watch.windows) if (w.seconds !== HOUR_SECONDS && w.seconds !== DAY_SECONDS) add(windowKey(pid, ev, w.seconds), ev, w);
  }

  // The error: created by the first chunk that finds none, else its bounds moved and counts added.
  const v: Record<string, unknown> = { ":n": chunk.length, ":occ": last.e.occurredAt, ":rec": maxReceived, ":pid": pid, ":eid": errorId };
  const names: Record<string, string> = {};
  const set = ["projectId = :pid", "errorId = :eid"];
  const conditions: string[] = [];
  const latest = () => {
    const e = last.e;
    set.push("lastSeen = :occ", "lastRelease = :rel", "description = :desc", "#name = :name", "actor = :actor", "platform = :platform", "#type = :type", "#level = :level", "#search = :search", "gsi1sk = :lsk");
    Object.assign(names, { "#name": "name", "#type": "type", "#level": "level", "#search": "search" });
    // Lower-cased text for `search_term` (DynamoDB's `contains` is case-sensitive).
    Object.assign(v, { ":rel": e.release ?? "", ":desc": e.description, ":name": e.name, ":actor": e.actor, ":platform": e.platform, ":type": e.type, ":level": e.level ?? "", ":search": `${e.name} ${e.description} ${e.actor}`.toLowerCase().slice(0, 1500), ":lsk": lastSeenSk(e.occurredAt, errorId) });
  };
  const received = () => {
    set.push("lastReceived = :rec", "expireAt = :exp");
    v[":exp"] = expireAtFor(maxReceived);
  };
  let remove = "";
  if (!known) {
    latest();
    received();
    set.push("firstSeen = :focc", "firstRelease = :frel", "#status = :unresolved", "gsi1pk = :spk", "gsi2pk = :spk", "gsi2sk = :fsk");
    names["#status"] = "status";
    Object.assign(v, { ":focc": first.e.occurredAt, ":frel": first.e.release ?? "", ":unresolved": "unresolved", ":spk": errorsByStatusPk(pid, "unresolved"), ":fsk": firstSeenSk(first.e.occurredAt, errorId) });
    conditions.push("attribute_not_exists(pk)");
    if (watch.detectNew) fire(first, { kind: "new_error", errorId });
    after.error = { firstSeen: first.e.occurredAt, lastSeen: last.e.occurredAt, lastReceived: maxReceived };
    after.claims = { base: "", own: last.e.occurredAt };
  } else {
    conditions.push("attribute_exists(pk)");
    const moved = { ...known };
    if (last.e.occurredAt >= known.lastSeen) {
      latest();
      moved.lastSeen = last.e.occurredAt;
      after.claims = { base: state.claims?.base ?? known.lastSeen, own: last.e.occurredAt };
    }
    if (maxReceived > known.lastReceived) {
      received();
      conditions.push("lastReceived <= :rec");
      moved.lastReceived = maxReceived;
    }
    if (first.e.occurredAt < known.firstSeen) {
      set.push("firstSeen = :focc", "firstRelease = :frel", "gsi2sk = :fsk");
      Object.assign(v, { ":focc": first.e.occurredAt, ":frel": first.e.release ?? "", ":fsk": firstSeenSk(first.e.occurredAt, errorId) });
      conditions.push("firstSeen >= :focc");
      moved.firstSeen = first.e.occurredAt;
    }
    // The first events after a resolution disarm the watch: they alone are the regression.
    if (known.reopenWatch) {
      remove = " REMOVE reopenWatch";
      conditions.push("reopenWatch = :kw");
      v[":kw"] = known.reopenWatch;
      fire(first, { kind: "regression", errorId, resolvedAt: known.reopenWatch });
      delete moved.reopenWatch;
    } else conditions.push("attribute_not_exists(reopenWatch)");
    after.error = moved;
  }
  // Whatever this chunk claims as newest (the error's latest fields, a tag value's last seen) must
  // not be older than what a concurrent consumer counted since the read: the error's last seen is
  // at most the oldest claim, or still what this group's own transactions made it.
  const newestTimes = [...(known && last.e.occurredAt >= known.lastSeen ? [last.e.occurredAt] : []), ...[...tags.values()].filter((t) => known && isNewest(t.last)).map((t) => t.last)];
  if (known && newestTimes.length) {
    conditions.push(state.claims ? "(lastSeen <= :newest OR lastSeen = :own)" : "lastSeen <= :newest");
    v[":newest"] = newestTimes.reduce((m, t) => (t < m ? t : m));
    if (state.claims) v[":own"] = state.claims.own;
  }
  const update = `SET ${set.join(", ")}${remove} ADD eventsCount :n${newUsers ? ", userCount :u" : ""}`;
  if (newUsers) v[":u"] = newUsers;
  const condition = conditions.join(" AND ");
  const items: TransactItem[] = [
    {
      Update: {
        Key: errorKey(pid, errorId),
        UpdateExpression: update,
        ConditionExpression: condition,
        ExpressionAttributeNames: Object.keys(names).length ? names : undefined,
        // DynamoDB rejects values the expressions do not use.
        ExpressionAttributeValues: Object.fromEntries(Object.entries(v).filter(([k]) => new RegExp(`${k}\\b`).test(`${update} ${condition}`))),
      },
    },
  ];


  for (const [id, c] of counters) {
    const values: Record<string, unknown> = { ":x": expireAtFor(c.received), ":n": c.n };
    let condition: string | undefined;
    if (c.window) {
      const before = state.counters.get(id) ?? 0;
      const crossed = c.window.thresholds.filter((t) => t >= before && t < before + c.n);
      if (crossed.length) {
        // Fire each threshold the count passes, on the event that passes it, and hold the count to
        // what was read, so no other consumer's events take part of the crossing.
        const ordered = [...c.events].sort(byTime);
        for (const t of crossed) {
          const ev = ordered[t - before]!;
          fire(ev, { kind: "threshold", errorId, windowSeconds: c.window.seconds, windowStart: windowStartOf(ev.e.occurredAt, c.window.seconds), threshold: t });
        }
        condition = before === 0 ? "attribute_not_exists(eventsCount) OR eventsCount = :zero" : "eventsCount = :c";
        if (before === 0) values[":zero"] = 0;
        else values[":c"] = before;
      } else {
        // Nothing crossed from what was read: hold only that these n events cross nothing from
        // whatever the count is now (count c crosses T when T - n < c <= T), so the add commutes
        // with a concurrent consumer's, as an unwatched counter's does.
        const ranges = c.window.thresholds.map((t, i) => {
          Object.assign(values, { [`:lo${i}`]: t - c.n + 1, [`:hi${i}`]: t });
          return `eventsCount BETWEEN :lo${i} AND :hi${i}`;
        });
        // An absent count is 0, which crosses a threshold below n.
        const absentCrosses = c.window.thresholds.some((t) => t < c.n);
        condition = `${absentCrosses ? "attribute_exists(eventsCount) AND" : "attribute_not_exists(eventsCount) OR"} NOT (${ranges.join(" OR ")})`;
      }
      after.counters.set(id, before + c.n);
    }
    items.push({ Update: { Key: c.key, UpdateExpression: "SET expireAt = :x ADD eventsCount :n", ...(condition ? { ConditionExpression: condition } : {}), ExpressionAttributeValues: values } });
  }

  for (const t of tags.values()) {
    if (!t.user) items.push(tagUpdate(pid, errorId, t, isNewest(t.last)));
    else {
      items.push(tagUpdate(pid, errorId, t, isNewest(t.last), { key: userKey(pid, errorId, t.user), onlyNew: !state.users.get(t.user) }));
      after.users.set(t.user, true);
    }
  }

  const eventAt = new Map<number, string>();
  for (const ev of chunk) {
    eventAt.set(items.length, ev.msg.eventId);
    items.push(eventPut(ev, triggers.get(ev.msg.eventId) ?? []));
  }
  return { items, triggers, after, eventAt };
}

function eventPut({ msg, e, receivedAt, payloadGz }: GroupEvent, triggers: Trigger[]): TransactItem {
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
        payloadGz,
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

/** Cancellation codes of the transient kind: the same transaction may pass after a pause. */
const TRANSIENT = new Set(["TransactionConflict", "ThrottlingError", "ProvisionedThroughputExceeded", "RequestLimitExceeded"]);

/**
 * What a cancelled chunk's reasons (one code per action, in order) say: the events counted before
 * (their puts failed their condition), whether the state moved (another condition failed), whether
 * to pause (a conflict or throttling), and whether a reason is none of these, which no retry cures.
 */
export function readCancellation(codes: string[], eventAt: ReadonlyMap<number, string>) {
  const duplicates = [...eventAt].filter(([at]) => codes[at] === "ConditionalCheckFailed").map(([, id]) => id);
  const moved = codes.some((code, at) => code === "ConditionalCheckFailed" && !eventAt.has(at));
  const backoff = codes.some((code) => TRANSIENT.has(code));
  const unknown = codes.some((code) => code !== "None" && code !== "ConditionalCheckFailed" && !TRANSIENT.has(code)) || (!duplicates.length && !moved && !backoff);
  return { duplicates, moved, backoff, unknown };
}

/** The state read again after a condition failed; the group's own claims on last seen stay while last seen is still what it wrote. */
async function reread(pid: number, errorId: number, pending: GroupEvent[], watch: Watch, before: GroupState): Promise<GroupState> {
  const state = await readState(pid, errorId, pending, watch);
  return before.claims && state.error?.lastSeen === before.claims.own ? { ...state, claims: before.claims } : state;
}

/**
 * Records `events` (one error's, distinct event ids) and says, per event id, whether it was counted
 * here or had been before. Throws only for what a retry of the messages may cure (DynamoDB
 * unavailable, the deadline passed); the caller then fails the group's messages, and their
 * redelivery counts exactly what this did not.
 */
export async function recordErrorEvents(pid: number, errorId: number, events: GroupEvent[], watch: Watch, deadline: number): Promise<Map<string, Recorded>> {
  const out = new Map<string, Recorded>();
  let pending: Pending[] = events.map((ev) => ({ ...ev, signature: signature(ev) })).sort(byValuesThenTime);
  const valueTimes = valueTimesOf(events);
  let state: GroupState | undefined;
  // Every cancelled attempt but a conflict drops a duplicate or reads a moved state; this bounds the
  // rare case of a state that keeps moving under the group.
  let moves = 0;
  for (let conflicts = 0; pending.length > 0; ) {
    state ??= await readState(pid, errorId, pending, watch);
    const chunk = chunkOf(pid, pending, watch);
    const plan = planChunk(pid, errorId, chunk, state, watch, valueTimes);
    try {
      await transact(plan.items);
    } catch (err) {
      const codes = cancellationCodes(err);
      if (!codes) throw err;
      const verdict = readCancellation(codes, plan.eventAt);
      // A reason no retry here cures (a validation error, an item collection full): the messages fail, and SQS retries them.
      if (verdict.unknown) throw err;
      for (const id of verdict.duplicates) out.set(id, { result: "duplicate", triggers: [] });
      pending = pending.filter((ev) => !verdict.duplicates.includes(ev.msg.eventId));
      // A conflict or throttling changed nothing this group assumed (every assumption is a
      // condition, which fails when it did): the same state is tried again after a pause.
      if (verdict.moved) state = await reread(pid, errorId, pending, watch, state);
      if (Date.now() > deadline) throw new Error(`error ${errorId}: ${pending.length} events not recorded before the deadline (${verdict.backoff ? "conflicts" : "state moving"})`);
      if (verdict.backoff) await sleep(Math.random() * Math.min(250, 5 * 2 ** Math.min(++conflicts, 6)));
      else if (verdict.moved && ++moves > 50 + events.length) throw new Error(`error ${errorId}: its state kept moving under ${moves} attempts`);
      continue;
    }
    for (const ev of chunk) out.set(ev.msg.eventId, { result: "recorded", triggers: plan.triggers.get(ev.msg.eventId) ?? [] });
    pending = pending.slice(chunk.length);
    state = plan.after;
    // Where a crash test kills the consumer: one transaction of the group committed, the rest not.
    await faultPoint("ingestChunk", "after", { errorId, recorded: chunk.length, pending: pending.length });
  }
  return out;
}
