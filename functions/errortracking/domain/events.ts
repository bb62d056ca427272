/**
 * The events of one error, newest first, and one event by id. The event items are filed per error
 * in gsi1 (`ETERR#<pid>#<errorId>` / `<occurredAt>#<eventId>`, `keys.ts`), so a page is one Query of
 * `limit` items; the cursor is the sort key of the last (or, going back, the first) event shown.
 */
import { ApiError } from "../../platform/http/errors.js";
import { docQuery } from "../../platform/db/document.js";
import { getItem, GSI1 } from "../../platform/db/table.js";
import { resources } from "../../platform/resources.js";
import { storedEvent, type StoredEvent } from "./errors.js";
import { eventKey, eventsOfErrorPk } from "./keys.js";

export interface EventPage {
  events: StoredEvent[];
  next?: string;
  previous?: string;
}

interface EventCursor {
  /** `n`: the page after (older events); `p`: the page before (newer ones). */
  d: "n" | "p";
  /** gsi1 sort key of the event the page starts after. */
  k: string;
}

const SORT_KEY = /^[0-9T:.+\-Z]{10,40}#[0-9a-f]{32}$/;
const invalidCursor = () => new ApiError(400, { message: "Bad Request: Invalid cursor" });
const encode = (c: EventCursor) => Buffer.from(JSON.stringify(c)).toString("base64url");

function decode(raw: string): EventCursor {
  let c: EventCursor;
  try {
    c = JSON.parse(Buffer.from(raw, "base64url").toString("utf8")) as EventCursor;
  } catch {
    throw invalidCursor();
  }
  if (!c || (c.d !== "n" && c.d !== "p") || typeof c.k !== "string" || !SORT_KEY.test(c.k)) throw invalidCursor();
  return c;
}

const live = (nowSec: number) => ({ expression: "attribute_not_exists(expireAt) OR expireAt > :now", values: { ":now": nowSec } });

export async function listErrorEvents(projectId: number, errorId: number, opts: { cursor?: string; limit: number }): Promise<EventPage> {
  const cursor = opts.cursor ? decode(opts.cursor) : undefined;
  const back = cursor?.d === "p";
  const gsi1pk = eventsOfErrorPk(projectId, errorId);
  const startKey = cursor ? { ...eventKey(projectId, cursor.k.slice(cursor.k.indexOf("#") + 1)), gsi1pk, gsi1sk: cursor.k } : undefined;
  const filter = live(Math.floor(Date.now() / 1000));
  const items: Array<Record<string, any>> = [];
  let from: Record<string, unknown> | undefined = startKey;
  // One more than a page tells whether another page exists; expired events are skipped, not counted.
  do {
    const out = await docQuery({
      TableName: resources.mainTable(),
      IndexName: GSI1,
      KeyConditionExpression: "gsi1pk = :pk",
      FilterExpression: filter.expression,
      ExpressionAttributeValues: { ":pk": gsi1pk, ...filter.values },
      ScanIndexForward: back,
      Limit: opts.limit + 1 - items.length,
      ExclusiveStartKey: from,
    });
    items.push(...(out.Items ?? []));
    from = out.LastEvaluatedKey;
  } while (from && items.length <= opts.limit);
  const more = items.length > opts.limit;
  const shown = items.slice(0, opts.limit);
  if (back) shown.reverse();
  const first = shown[0]?.gsi1sk as string | undefined;
  const last = shown[shown.length - 1]?.gsi1sk as string | undefined;
  const next = back ? (last ?? cursor?.k) : more ? last : undefined;
  const previous = back ? (more ? first : undefined) : cursor && first ? first : undefined;
  return {
    events: shown.map(storedEvent),
    next: next ? encode({ d: "n", k: next }) : undefined,
    previous: previous ? encode({ d: "p", k: previous }) : undefined,
  };
}

/** One event of the project, or undefined (another project's, a session marker, or past retention). */
export async function getEvent(projectId: number, eventId: string): Promise<StoredEvent | undefined> {
  if (!/^[0-9a-f]{32}$/.test(eventId)) return undefined;
  const key = eventKey(projectId, eventId);
  const item = await getItem<Record<string, any>>(key.pk, key.sk, false);
  if (!item || item.kind !== "event" || (item.expireAt !== undefined && item.expireAt * 1000 <= Date.now())) return undefined;
  return storedEvent(item);
}
