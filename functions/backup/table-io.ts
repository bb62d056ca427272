/**
 * The table as raw DynamoDB items (AttributeValue maps), so a backup is lossless whatever an item
 * holds — numbers beyond double precision, binary, sets — and restore writes back exactly what was
 * read. Archived as JSON lines in DynamoDB's own JSON form (binary as base64), like a table export.
 *
 * Uses Scan and BatchWriteItem, which no request path may use: a backup is an offline operation
 * that reads or writes the whole table on purpose.
 */
import {
  BatchGetItemCommand,
  BatchWriteItemCommand,
  DescribeTableCommand,
  DynamoDBClient,
  GetItemCommand,
  ScanCommand,
  type AttributeValue,
  type WriteRequest,
} from "@aws-sdk/client-dynamodb";
import { resources } from "../platform/resources.js";

export type RawItem = Record<string, AttributeValue>;
export type RawKey = { pk: string; sk: string };

let client: DynamoDBClient | undefined;
let builtFor: string | undefined;

/** Same endpoint rule as `platform/aws.ts` (the SDK's `AWS_ENDPOINT_URL_DYNAMODB`), raw values. */
export function rawDynamo(): DynamoDBClient {
  const endpoint = process.env.AWS_ENDPOINT_URL_DYNAMODB;
  if (!client || builtFor !== endpoint) [client, builtFor] = [new DynamoDBClient({ endpoint, maxAttempts: 8 }), endpoint];
  return client;
}

export const str = (item: RawItem, name: string): string | undefined => item[name]?.S;
export const num = (item: RawItem, name: string): number | undefined => (item[name]?.N !== undefined ? Number(item[name]!.N) : undefined);
export const keyOf = (item: RawItem): RawKey => ({ pk: str(item, "pk") ?? "", sk: str(item, "sk") ?? "" });
/** One string per key, for sets and maps of keys. */
export const keyId = (key: RawKey) => `${key.pk}\u0000${key.sk}`;

/** Item count and size as DynamoDB reports them (approximate on AWS; used for progress only). */
export async function describeTable(): Promise<{ name: string; itemCount: number; sizeBytes: number }> {
  const name = resources.mainTable();
  const out = await rawDynamo().send(new DescribeTableCommand({ TableName: name }));
  const keys = (out.Table?.KeySchema ?? []).map((k) => k.AttributeName).join(",");
  if (keys !== "pk,sk") throw new Error(`Table ${name} does not have the pk/sk key schema of a Forgeline table`);
  return { name, itemCount: out.Table?.ItemCount ?? 0, sizeBytes: out.Table?.TableSizeBytes ?? 0 };
}

/**
 * Every item, through a parallel, strongly consistent Scan. `onPage` is called once per page and
 * awaited, so a slow consumer slows the scan instead of buffering the table in memory.
 */
export async function scanTable(onPage: (items: RawItem[]) => Promise<void> | void, opts: { segments?: number; projection?: string[] } = {}): Promise<void> {
  const total = opts.segments ?? 4;
  const names = opts.projection && Object.fromEntries(opts.projection.map((p, i) => [`#p${i}`, p]));
  const segment = async (n: number) => {
    let startKey: RawItem | undefined;
    do {
      const out = await rawDynamo().send(
        new ScanCommand({
          TableName: resources.mainTable(),
          Segment: n,
          TotalSegments: total,
          ConsistentRead: true,
          ExclusiveStartKey: startKey,
          ProjectionExpression: names && Object.keys(names).join(", "),
          ExpressionAttributeNames: names,
        }),
      );
      await onPage(out.Items ?? []);
      startKey = out.LastEvaluatedKey;
    } while (startKey);
  };
  await Promise.all(Array.from({ length: total }, (_, n) => segment(n)));
}

export async function getRawItem(key: RawKey): Promise<RawItem | undefined> {
  const out = await rawDynamo().send(new GetItemCommand({ TableName: resources.mainTable(), Key: { pk: { S: key.pk }, sk: { S: key.sk } }, ConsistentRead: true }));
  return out.Item;
}

/**
 * Several items by key (at most 100), strongly consistent, in the order asked (undefined where
 * absent): one BatchGetItem, keys DynamoDB leaves unprocessed asked again after a short backoff.
 */
export async function getRawItems(keys: RawKey[]): Promise<Array<RawItem | undefined>> {
  const table = resources.mainTable();
  const found = new Map<string, RawItem>();
  let pending: RawItem[] = [...new Map(keys.map((k) => [keyId(k), { pk: { S: k.pk }, sk: { S: k.sk } }])).values()];
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (attempt > 10) throw new Error(`DynamoDB left ${pending.length} reads unprocessed after ${attempt} attempts`);
    if (attempt > 0) await new Promise((r) => setTimeout(r, Math.min(25 * 2 ** attempt, 1000)));
    const out = await rawDynamo().send(new BatchGetItemCommand({ RequestItems: { [table]: { Keys: pending, ConsistentRead: true } } }));
    for (const item of out.Responses?.[table] ?? []) found.set(keyId(keyOf(item)), item);
    pending = out.UnprocessedKeys?.[table]?.Keys ?? [];
  }
  return keys.map((k) => found.get(keyId(k)));
}

/** Puts or deletes in batches of 25, `parallel` batches at a time, retrying unprocessed items with backoff. */
export async function batchWrite(ops: Array<{ put: RawItem } | { delete: RawKey }>, parallel = 8): Promise<void> {
  const table = resources.mainTable();
  const requests: WriteRequest[] = ops.map((op) =>
    "put" in op ? { PutRequest: { Item: op.put } } : { DeleteRequest: { Key: { pk: { S: op.delete.pk }, sk: { S: op.delete.sk } } } },
  );
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const start = next;
      next += 25;
      let pending = requests.slice(start, start + 25);
      for (let attempt = 0; pending.length > 0; attempt++) {
        if (attempt > 10) throw new Error(`DynamoDB left ${pending.length} writes unprocessed after ${attempt} attempts`);
        if (attempt > 0) await new Promise((r) => setTimeout(r, Math.min(50 * 2 ** attempt, 5000)));
        const out = await rawDynamo().send(new BatchWriteItemCommand({ RequestItems: { [table]: pending } }));
        pending = out.UnprocessedItems?.[table] ?? [];
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, Math.ceil(requests.length / 25)) }, worker));
}

// ── JSON lines (DynamoDB JSON, binary as base64) ──────────────────────────────────────────────────

type Json = Record<string, unknown>;

function toJson(v: AttributeValue): Json {
  if (v.B !== undefined) return { B: Buffer.from(v.B).toString("base64") };
  if (v.BS !== undefined) return { BS: v.BS.map((b) => Buffer.from(b).toString("base64")) };
  if (v.M !== undefined) return { M: Object.fromEntries(Object.entries(v.M).map(([k, x]) => [k, toJson(x)])) };
  if (v.L !== undefined) return { L: v.L.map(toJson) };
  return v as unknown as Json;
}

function fromJson(v: Json): AttributeValue {
  if (typeof v.B === "string") return { B: Buffer.from(v.B, "base64") };
  if (Array.isArray(v.BS)) return { BS: (v.BS as string[]).map((b) => Buffer.from(b, "base64")) };
  if (v.M && typeof v.M === "object") return { M: Object.fromEntries(Object.entries(v.M as Record<string, Json>).map(([k, x]) => [k, fromJson(x)])) };
  if (Array.isArray(v.L)) return { L: (v.L as Json[]).map(fromJson) };
  return v as unknown as AttributeValue;
}

export const encodeItem = (item: RawItem): string => JSON.stringify(Object.fromEntries(Object.entries(item).map(([k, v]) => [k, toJson(v)])));

export function decodeItem(line: string): RawItem {
  const parsed = JSON.parse(line) as Record<string, Json>;
  if (!parsed || typeof parsed !== "object" || typeof parsed.pk?.S !== "string" || typeof parsed.sk?.S !== "string") {
    throw new Error("an archived table item has no pk/sk");
  }
  return Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, fromJson(v)]));
}
