/**
 * Thin helpers over the single DynamoDB table. Items carry `pk`/`sk` plus up to two generic
 * secondary-index key pairs (`gsi1pk`/`gsi1sk`, `gsi2pk`/`gsi2sk`); what each key means is decided by
 * the access pattern that reads it (see each context's `keys.ts`). Lists are Queries, never Scans.
 */
import { docBatchGet, docBatchWrite, docDelete, docGet, docPut, docQuery, docTransactWrite, docUpdate, type Doc, type DocTransactItem, type DocWriteRequest } from "./document.js";
import { resources } from "../resources.js";
import { mapConcurrently } from "../concurrency.js";

export type Item = Record<string, unknown> & { pk: string; sk: string };
/** A transaction entry without `TableName` (every entry targets the main table). */
export type TransactItem = { [K in keyof DocTransactItem]?: Omit<NonNullable<DocTransactItem[K]>, "TableName"> };

export const GSI1 = "gsi1";
export const GSI2 = "gsi2";

/** Zero-padded decimal so lexical order of sort keys equals numeric order. */
export const pad = (n: number) => n.toString().padStart(12, "0");

export async function getItem<T = Item>(pk: string, sk: string, consistent = true): Promise<T | undefined> {
  const out = await docGet({ TableName: resources.mainTable(), Key: { pk, sk }, ConsistentRead: consistent });
  return out.Item as T | undefined;
}

/**
 * Several items by key, in the order asked (undefined where absent): one BatchGetItem per 100 keys
 * instead of a GetItem each, so a page of records that nest other items costs one or two round trips.
 * Keys DynamoDB leaves unprocessed (throttling) are asked again after a short backoff.
 */
export async function getItems<T = Item>(keys: Array<{ pk: string; sk: string }>, consistent = true): Promise<Array<T | undefined>> {
  const table = resources.mainTable();
  const found = new Map<string, T>();
  const id = (k: { pk: unknown; sk: unknown }) => `${String(k.pk)}\u0000${String(k.sk)}`;
  const unique = [...new Map(keys.map((k) => [id(k), { pk: k.pk, sk: k.sk }])).values()];
  for (let i = 0; i < unique.length; i += 100) {
    let pending: Doc[] = unique.slice(i, i + 100);
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, Math.min(1000, 25 * 2 ** attempt)));
      const out = await docBatchGet({ RequestItems: { [table]: { Keys: pending, ConsistentRead: consistent } } });
      for (const item of out.Responses?.[table] ?? []) found.set(id(item as Item), item as T);
      pending = out.UnprocessedKeys?.[table]?.Keys ?? [];
    }
  }
  return keys.map((k) => found.get(id(k)));
}

export async function putItem(item: Item, condition?: { expression: string; names?: Record<string, string>; values?: Record<string, unknown> }) {
  await docPut({
    TableName: resources.mainTable(),
    Item: item,
    ConditionExpression: condition?.expression,
    ExpressionAttributeNames: condition?.names,
    ExpressionAttributeValues: condition?.values,
  });
}

export async function deleteItem(pk: string, sk: string) {
  await docDelete({ TableName: resources.mainTable(), Key: { pk, sk } });
}

export async function updateItem(input: {
  pk: string;
  sk: string;
  update: string;
  condition?: string;
  names?: Record<string, string>;
  values?: Record<string, unknown>;
}): Promise<Record<string, unknown> | undefined> {
  const out = await docUpdate({
    TableName: resources.mainTable(),
    Key: { pk: input.pk, sk: input.sk },
    UpdateExpression: input.update,
    ConditionExpression: input.condition,
    ExpressionAttributeNames: input.names,
    ExpressionAttributeValues: input.values,
    ReturnValues: "ALL_NEW",
  });
  return out.Attributes;
}

export async function transact(items: TransactItem[]) {
  const table = resources.mainTable();
  const withTable = items.map((entry) => {
    const [kind, body] = Object.entries(entry)[0] as [string, Record<string, unknown>];
    return { [kind]: { TableName: table, ...body } } as DocTransactItem;
  });
  await docTransactWrite({ TransactItems: withTable });
}

/** Allocates the next integer id of a sequence (GitLab ids are integers). */
export async function nextId(sequence: string): Promise<number> {
  return (await nextIds(sequence, 1))[0]!;
}

/** Reserves `count` consecutive ids of a sequence with one write (an id reserved and not used is a gap, as in GitLab). */
export async function nextIds(sequence: string, count: number): Promise<number[]> {
  if (count <= 0) return [];
  const out = await updateItem({
    pk: `SEQ#${sequence}`,
    sk: "SEQ",
    update: "ADD #v :n",
    names: { "#v": "value" },
    values: { ":n": count },
  });
  const last = Number(out?.value);
  return Array.from({ length: count }, (_, i) => last - count + 1 + i);
}

/**
 * A running count kept beside the items it counts (`COUNT#<name>`), so a list can send `X-Total`
 * without reading them. Undefined on data written before the counter existed.
 */
export async function readCount(name: string): Promise<number | undefined> {
  return (await getItem<{ value: number }>(`COUNT#${name}`, "COUNT", false))?.value;
}
export async function addToCount(name: string, delta: number): Promise<void> {
  await updateItem({ pk: `COUNT#${name}`, sk: "COUNT", update: "ADD #v :d", names: { "#v": "value" }, values: { ":d": delta } });
}

export interface QueryPage<T> {
  items: T[];
  hasMore: boolean;
}

interface KeyRange {
  index?: typeof GSI1 | typeof GSI2;
  pk: string;
  skPrefix?: string;
  /** Sort keys from/to these values, inclusive (keyset pagination); not with `skPrefix`. */
  skFrom?: string;
  skTo?: string;
  ascending?: boolean;
  filter?: { expression: string; names?: Record<string, string>; values?: Record<string, unknown> };
  /** Only these attributes (a large partition read for a few fields). */
  projection?: string[];
  /** Strongly consistent (base table only; DynamoDB refuses it on a secondary index). */
  consistent?: boolean;
}

function skCondition(range: KeyRange): { expression: string; values: Record<string, string> } | undefined {
  if (range.skPrefix !== undefined) return { expression: "begins_with(#sk, :sk)", values: { ":sk": range.skPrefix } };
  const { skFrom: from, skTo: to } = range;
  if (from !== undefined && to !== undefined) return { expression: "#sk BETWEEN :skFrom AND :skTo", values: { ":skFrom": from, ":skTo": to } };
  if (from !== undefined) return { expression: "#sk >= :skFrom", values: { ":skFrom": from } };
  if (to !== undefined) return { expression: "#sk <= :skTo", values: { ":skTo": to } };
  return undefined;
}

/** The Query of one key range, without its paging (`Limit`, `ExclusiveStartKey`). */
function rangeQuery(range: KeyRange) {
  const pkName = range.index ? `${range.index}pk` : "pk";
  const skName = range.index ? `${range.index}sk` : "sk";
  const projected = Object.fromEntries((range.projection ?? []).map((name, i) => [`#p${i}`, name]));
  const sk = skCondition(range);
  return {
    TableName: resources.mainTable(),
    IndexName: range.index,
    KeyConditionExpression: sk ? `#pk = :pk AND ${sk.expression}` : "#pk = :pk",
    FilterExpression: range.filter?.expression,
    ProjectionExpression: range.projection ? Object.keys(projected).join(", ") : undefined,
    ConsistentRead: range.consistent,
    ExpressionAttributeNames: { "#pk": pkName, ...(sk ? { "#sk": skName } : {}), ...range.filter?.names, ...projected },
    ExpressionAttributeValues: { ":pk": range.pk, ...sk?.values, ...range.filter?.values },
    ScanIndexForward: range.ascending ?? false,
  };
}

/** Pages of one key range, in sort-key order; `pageSize` bounds each Query call. */
async function* queryRange<T>(range: KeyRange, pageSize?: () => number): AsyncGenerator<T[]> {
  let startKey: Doc | undefined;
  do {
    const out = await docQuery({ ...rangeQuery(range), Limit: pageSize?.(), ExclusiveStartKey: startKey });
    yield (out.Items ?? []) as T[];
    startKey = out.LastEvaluatedKey;
  } while (startKey);
}

/**
 * Offset page of a key range, newest (highest sort key) first unless `ascending`. Reads at most
 * `offset + limit + 1` items through Query pagination; the extra one tells whether a next page exists.
 */
export async function queryPage<T = Item>(input: KeyRange & { offset: number; limit: number }): Promise<QueryPage<T>> {
  const want = input.offset + input.limit + 1;
  const collected: T[] = [];
  // A filter drops items after the read, so a page sized to what is still wanted would walk a large
  // range a few items per call: filtered ranges are read in pages of the largest size.
  for await (const batch of queryRange<T>(input, () => (input.filter ? 500 : Math.min(want - collected.length + 1, 500)))) {
    collected.push(...batch);
    if (collected.length >= want) break;
  }
  return { items: collected.slice(input.offset, input.offset + input.limit), hasMore: collected.length > input.offset + input.limit };
}

/** Items of a key range in sort-key order (newest first unless `ascending`), up to the first that fails `keep`. */
export async function queryWhile<T = Item>(input: KeyRange, keep: (item: T) => boolean): Promise<T[]> {
  const items: T[] = [];
  for await (const batch of queryRange<T>(input, () => 100)) {
    for (const item of batch) {
      if (!keep(item)) return items;
      items.push(item);
    }
  }
  return items;
}

/**
 * How many items a key range holds, counted by DynamoDB (`Select: COUNT`, nothing returned), or
 * undefined once it passes `max`: GitLab omits totals above 10,000 and so does this count.
 */
export async function countRange(input: Omit<KeyRange, "projection">, max: number): Promise<number | undefined> {
  let count = 0;
  let startKey: Doc | undefined;
  do {
    const out = await docQuery({ ...rangeQuery(input), Select: "COUNT", Limit: max + 1 - count, ExclusiveStartKey: startKey });
    count += out.Count ?? 0;
    if (count > max) return undefined;
    startKey = out.LastEvaluatedKey;
  } while (startKey);
  return count;
}

/** Every item of a key range (for bounded sets such as a project's members or a batch of moves). */
export async function queryAll<T = Item>(input: KeyRange): Promise<T[]> {
  const items: T[] = [];
  for await (const batch of queryRange<T>({ ascending: true, ...input })) items.push(...batch);
  return items;
}

export type Write = { put: Item } | { delete: { pk: string; sk: string } };

/**
 * Puts and deletes in BatchWriteItem calls of 25, `parallel` calls at a time; items DynamoDB leaves
 * unprocessed are sent again after a growing pause, and after 9 tries the write fails.
 */
export async function writeBatch(writes: readonly Write[], parallel = 8): Promise<void> {
  const table = resources.mainTable();
  const batches: Write[][] = [];
  for (let i = 0; i < writes.length; i += 25) batches.push(writes.slice(i, i + 25));
  await mapConcurrently(batches, parallel, async (batch) => {
    let pending: DocWriteRequest[] = batch.map((w) => ("put" in w ? { PutRequest: { Item: w.put } } : { DeleteRequest: { Key: { pk: w.delete.pk, sk: w.delete.sk } } }));
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt > 8) throw new Error(`DynamoDB left ${pending.length} batched writes unprocessed`);
      if (attempt > 0) await new Promise((r) => setTimeout(r, Math.min(50 * 2 ** attempt, 5000)));
      const out = await docBatchWrite({ RequestItems: { [table]: pending } });
      pending = out.UnprocessedItems?.[table] ?? [];
    }
  });
}

export function isConditionFailure(err: unknown): boolean {
  const name = (err as { name?: string })?.name;
  return name === "ConditionalCheckFailedException" || name === "TransactionCanceledException";
}

/**
 * Table definition shared by `stacks/` (as documentation) and the local runtime (which creates it).
 * No function reads it: marked pure, it stays out of their bundles (the bundler cannot tell that an
 * object with computed keys is free of side effects).
 */
export const tableDefinition = /* @__PURE__ */ (() =>
  ({
    attributes: ["pk", "sk", "gsi1pk", "gsi1sk", "gsi2pk", "gsi2sk"],
    primaryIndex: { hashKey: "pk", rangeKey: "sk" },
    globalIndexes: {
      [GSI1]: { hashKey: "gsi1pk", rangeKey: "gsi1sk" },
      [GSI2]: { hashKey: "gsi2pk", rangeKey: "gsi2sk" },
    },
    ttl: "expireAt",
  }) as const)();
