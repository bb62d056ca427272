/**
 * Tags of an error's events, counted per value (Sentry's issue tags: "browser: Chrome 120 — 62%"),
 * and the release and environment filters of the error list, which read the same counters.
 *
 * An event's tags are Sentry's: what the SDK set (`tags`), the event's own `level`, `environment`,
 * `release`, `server_name`, `transaction`, request `url` and `user`, and those Sentry derives from
 * contexts (`runtime`, `os`, `browser`, `device`, with their `.name`) and from the exception's
 * mechanism (`handled`, `mechanism`). At most MAX_TAGS_PER_EVENT per event (the built-in ones first),
 * keys and values within Sentry's limits (32 and 200 characters); the rest is not counted.
 *
 * Each value is one item in the error's partition, `TAG#<key>#<hash of the value>`, updated by ADD n
 * in the transaction that puts its events' items (`record-events.ts`), so a redelivered event can
 * never count twice. The release and
 * environment values are also filed in the filter indexes: gsi1 `ETERRF#<pid>#<key>#<value>` ordered
 * by when the error was last seen with that value, gsi2 by when it was first seen with it.
 *
 * A value's first and last seen are exact for events processed in time order. An update expression
 * cannot take a min or a max, and a condition would cancel the event's whole transaction, so an
 * out-of-order event moves a value's last seen only when it is the error's newest event, and never
 * moves its first seen (documented limit; counts are always exact).
 */
import type { TransactItem } from "../../platform/db/table.js";
import { docQuery } from "../../platform/db/document.js";
import { resources } from "../../platform/resources.js";
import { exceptionValues, type ParsedEvent } from "./event.js";
import { errorKey, expireAtFor, firstSeenSk, keyHash, lastSeenSk, USER_PREFIX } from "./keys.js";

type Obj = Record<string, unknown>;

export const TAG_PREFIX = "TAG#";
export const MAX_TAGS_PER_EVENT = 16;
const MAX_KEY = 32;
const MAX_VALUE = 200;
/** Sentry's tag key charset. */
const KEY_RE = /^[a-zA-Z0-9_.:-]+$/;

export type FilterKey = "release" | "environment";
export const FILTER_KEYS: readonly FilterKey[] = ["release", "environment"];

/** The value is hashed in the key (it may be a user's e-mail or a URL; keys stay free of user data), kept in `tagValue`. */
export const tagKey = (projectId: number, errorId: number, key: string, value: string) => ({ pk: errorKey(projectId, errorId).pk, sk: `${TAG_PREFIX}${key}#${keyHash(value)}` });
/** The errors of a project seen with one release or environment (gsi1 by last seen, gsi2 by first seen). */
export const filterPk = (projectId: number, key: FilterKey, value: string) => `ETERRF#${projectId}#${key}#${value}`;

const obj = (v: unknown): Obj | undefined => (v && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : undefined);
const text = (v: unknown): string | undefined => (typeof v === "string" && v.trim() !== "" ? v.trim() : typeof v === "number" || typeof v === "boolean" ? String(v) : undefined);
const joined = (...parts: unknown[]) => parts.map(text).filter(Boolean).join(" ") || undefined;

/** Sentry's tags of one event, in the order they are kept when there are too many. */
export function eventTags(payload: Obj, e: Pick<ParsedEvent, "level" | "environment" | "release" | "user">): Array<[string, string]> {
  const contexts = obj(payload.contexts) ?? {};
  const ctx = (name: string) => obj(contexts[name]);
  const values = exceptionValues(payload);
  const mechanism = obj(values[values.length - 1]?.mechanism);
  const builtIn: Array<[string, string | undefined]> = [
    ["level", e.level ?? "error"],
    ["environment", e.environment ?? undefined],
    ["release", e.release ?? undefined],
    ["handled", typeof mechanism?.handled === "boolean" ? (mechanism.handled ? "yes" : "no") : undefined],
    ["mechanism", text(mechanism?.type)],
    ["runtime", joined(ctx("runtime")?.name, ctx("runtime")?.version)],
    ["runtime.name", text(ctx("runtime")?.name)],
    ["os", joined(ctx("os")?.name, ctx("os")?.version)],
    ["os.name", text(ctx("os")?.name)],
    ["browser", joined(ctx("browser")?.name, ctx("browser")?.version)],
    ["browser.name", text(ctx("browser")?.name)],
    ["device", text(ctx("device")?.model) ?? text(ctx("device")?.family)],
    ["server_name", text(payload.server_name)],
    ["transaction", text(payload.transaction)],
    ["url", text(obj(payload.request)?.url)],
    ["user", e.user ?? undefined],
  ];
  const raw = payload.tags;
  const sdkTags: Array<[string, unknown]> = Array.isArray(raw) ? raw.filter(Array.isArray).map((t) => [String(t[0]), t[1]]) : obj(raw) ? Object.entries(obj(raw)!) : [];
  const out = new Map<string, string>();
  for (const [key, value] of [...builtIn, ...sdkTags.map(([k, v]) => [k, text(v)] as [string, string | undefined])]) {
    if (out.size >= MAX_TAGS_PER_EVENT) break;
    if (value === undefined || out.has(key) || key.length > MAX_KEY || !KEY_RE.test(key)) continue;
    out.set(key, value.replace(/\u0000/g, "").slice(0, MAX_VALUE));
  }
  return [...out];
}

/** One tag value's share of a group of events (`record-events.ts`): how many, and their times. */
export interface TagValueDelta {
  key: string;
  value: string;
  n: number;
  /** Occurrence times of the oldest and newest of those events, and the latest receipt. */
  first: string;
  last: string;
  received: string;
}

/**
 * The transaction item that counts a tag value's events. `newest` = they are newer than anything
 * the error has counted (the error update's condition proves it): the value's last seen and the
 * filter indexes then move to their time; otherwise only a value the error had not been seen with
 * gets times. The `user` tag's values live on the error's user markers (`USER#<hash>`, `item`): one
 * item per user holds both "this user was counted" and how many events they had, so a batch writes
 * each of its users once; a user new to the error is written `onlyNew`, under `attribute_not_exists`.
 */
export function tagUpdate(projectId: number, errorId: number, t: TagValueDelta, newest: boolean, item?: { key: { pk: string; sk: string }; onlyNew: boolean }): TransactItem {
  const filter = (FILTER_KEYS as readonly string[]).includes(t.key);
  const set = ["tagKey = :k", "tagValue = :v", "expireAt = :x", "firstSeen = if_not_exists(firstSeen, :first)", newest ? "lastSeen = :last" : "lastSeen = if_not_exists(lastSeen, :last)"];
  const values: Record<string, unknown> = { ":k": t.key, ":v": t.value, ":x": expireAtFor(t.received), ":first": t.first, ":last": t.last, ":n": t.n };
  if (filter) {
    const pk = filterPk(projectId, t.key as FilterKey, t.value);
    set.push("gsi1pk = :fpk", "gsi2pk = :fpk", "gsi2sk = if_not_exists(gsi2sk, :fsk)", newest ? "gsi1sk = :lsk" : "gsi1sk = if_not_exists(gsi1sk, :lsk)", "errorId = :eid");
    Object.assign(values, { ":fpk": pk, ":fsk": firstSeenSk(t.first, errorId), ":lsk": lastSeenSk(t.last, errorId), ":eid": errorId });
  }
  return {
    Update: {
      Key: item?.key ?? tagKey(projectId, errorId, t.key, t.value),
      UpdateExpression: `SET ${set.join(", ")} ADD eventsCount :n`,
      ...(item?.onlyNew ? { ConditionExpression: "attribute_not_exists(pk)" } : {}),
      ExpressionAttributeValues: values,
    },
  };
}

export interface TagValueCount {
  key: string;
  value: string;
  count: number;
  firstSeen: string;
  lastSeen: string;
}

/** At most this many tag values of one error are read (documented limit; the rarest go unseen beyond it). */
export const TAG_READ_LIMIT = 2000;

/**
 * The error's tag values with their counts: the `TAG#` items, and the `user` tag's values on the
 * user markers (`USER#`). A user counted before the markers held the tag (events stored by an
 * earlier version) has both a `TAG#user#…` item and a marker: the two are added up.
 */
export async function tagValuesOf(projectId: number, errorId: number): Promise<TagValueCount[]> {
  const merged = new Map<string, TagValueCount>();
  for (const prefix of [TAG_PREFIX, USER_PREFIX]) {
    // The budget may be spent on the first prefix (DynamoDB refuses a Limit of 0).
    if (merged.size >= TAG_READ_LIMIT) break;
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await docQuery({
        TableName: resources.mainTable(),
        KeyConditionExpression: "pk = :pk AND begins_with(sk, :t)",
        // A value not seen for the retention period is past its expiry (DynamoDB's TTL lags); a
        // marker written before markers held the tag has no `tagKey`.
        FilterExpression: "attribute_exists(tagKey) AND (attribute_not_exists(expireAt) OR expireAt > :now)",
        ExpressionAttributeValues: { ":pk": errorKey(projectId, errorId).pk, ":t": prefix, ":now": Math.floor(Date.now() / 1000) },
        ProjectionExpression: "tagKey, tagValue, eventsCount, firstSeen, lastSeen",
        Limit: TAG_READ_LIMIT - merged.size,
        ExclusiveStartKey: startKey,
      });
      for (const i of page.Items ?? []) {
        const id = `${i.tagKey}\u0000${i.tagValue}`;
        const v: TagValueCount = { key: i.tagKey, value: i.tagValue, count: Number(i.eventsCount), firstSeen: i.firstSeen, lastSeen: i.lastSeen };
        const seen = merged.get(id);
        merged.set(id, seen ? { ...v, count: seen.count + v.count, firstSeen: seen.firstSeen < v.firstSeen ? seen.firstSeen : v.firstSeen, lastSeen: seen.lastSeen > v.lastSeen ? seen.lastSeen : v.lastSeen } : v);
      }
      startKey = page.LastEvaluatedKey;
    } while (startKey && merged.size < TAG_READ_LIMIT);
  }
  return [...merged.values()];
}

/** Sentry's `GET /issues/{id}/tags/` shape: per key, the total and the most frequent values. */
export function summarizeTags(values: TagValueCount[], top = 9) {
  const byKey = new Map<string, TagValueCount[]>();
  for (const v of values) byKey.set(v.key, [...(byKey.get(v.key) ?? []), v]);
  return [...byKey]
    .map(([key, list]) => ({
      key,
      name: key,
      totalValues: list.reduce((n, v) => n + v.count, 0),
      topValues: list
        .sort((a, b) => b.count - a.count || b.lastSeen.localeCompare(a.lastSeen))
        .slice(0, top)
        .map((v) => ({ key, name: v.value, value: v.value, count: v.count, firstSeen: v.firstSeen, lastSeen: v.lastSeen })),
    }))
    .sort((a, b) => b.totalValues - a.totalValues || a.key.localeCompare(b.key));
}
