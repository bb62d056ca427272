/**
 * DynamoDB calls with plain JavaScript values, for the operations this project uses: keys, items and
 * expression values are marshalled on the way in (`removeUndefinedValues`, as the table has always
 * been written) and items, keys and attributes unmarshalled on the way out, with the official
 * `@aws-sdk/util-dynamodb` converters, over `@aws-sdk/client-dynamodb`'s own commands.
 *
 * This is what `@aws-sdk/lib-dynamodb`'s document client does, without its weight in every Lambda:
 * its command wrappers and paginators (which keep Scan in every bundle) cost 7 KB per function.
 * Each call is its own export, so a bundle carries only the commands its function sends.
 */
import {
  BatchGetItemCommand,
  BatchWriteItemCommand,
  DeleteItemCommand,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  TransactWriteItemsCommand,
  UpdateItemCommand,
  type AttributeValue,
  type ConditionCheck,
  type Delete,
  type DeleteItemInput,
  type DeleteItemOutput,
  type GetItemInput,
  type GetItemOutput,
  type KeysAndAttributes,
  type Put,
  type PutItemInput,
  type QueryInput,
  type QueryOutput,
  type TransactWriteItem,
  type Update,
  type UpdateItemInput,
  type UpdateItemOutput,
} from "@aws-sdk/client-dynamodb";
import { marshall, unmarshall, type NativeAttributeValue } from "@aws-sdk/util-dynamodb";
import { dynamo } from "../aws.js";

/** An item, a key or a set of expression values, as plain values. */
export type Doc = Record<string, NativeAttributeValue>;
type Attrs = Record<string, AttributeValue>;
/** `T` with its attribute maps named in `K` as plain values (optional where `T` has them optional). */
type Plain<T, K extends keyof T> = Omit<T, K> & { [P in keyof Pick<T, K>]: undefined extends T[P] ? Doc | undefined : Doc };
/** `T` with its attribute maps named in `K` (single or lists) unmarshalled. */
type Native<T, K extends keyof T> = Omit<T, K> & { [P in keyof Pick<T, K>]?: NonNullable<T[P]> extends unknown[] ? Doc[] : Doc };

const toAttrs = (doc: Doc): Attrs => marshall(doc, { removeUndefinedValues: true });
const toDoc = (attrs: Attrs): Doc => unmarshall(attrs);

/** The input's attribute maps (whichever of them it has) marshalled; everything else as given. */
function marshalled<R>(input: object): R {
  const out: Record<string, unknown> = { ...input };
  for (const name of ["Key", "Item", "ExclusiveStartKey", "ExpressionAttributeValues"]) {
    if (out[name] !== undefined) out[name] = toAttrs(out[name] as Doc);
  }
  return out as R;
}

/** The output's items and attribute maps (whichever of them it has) unmarshalled. */
function unmarshalled<R>(output: object): R {
  const out: Record<string, unknown> = { ...output };
  for (const name of ["Item", "Attributes", "LastEvaluatedKey"]) {
    if (out[name] !== undefined) out[name] = toDoc(out[name] as Attrs);
  }
  if (out.Items !== undefined) out.Items = (out.Items as Attrs[]).map(toDoc);
  return out as R;
}

const mapValues = <T, U>(map: Record<string, T>, each: (value: T) => U): Record<string, U> =>
  Object.fromEntries(Object.entries(map).map(([name, value]) => [name, each(value)]));

export async function docGet(input: Plain<GetItemInput, "Key">): Promise<Native<GetItemOutput, "Item">> {
  return unmarshalled(await dynamo().send(new GetItemCommand(marshalled(input))));
}

export async function docPut(input: Plain<PutItemInput, "Item" | "ExpressionAttributeValues">): Promise<void> {
  await dynamo().send(new PutItemCommand(marshalled(input)));
}

export async function docDelete(input: Plain<DeleteItemInput, "Key" | "ExpressionAttributeValues">): Promise<Native<DeleteItemOutput, "Attributes">> {
  return unmarshalled(await dynamo().send(new DeleteItemCommand(marshalled(input))));
}

export async function docUpdate(input: Plain<UpdateItemInput, "Key" | "ExpressionAttributeValues">): Promise<Native<UpdateItemOutput, "Attributes">> {
  return unmarshalled(await dynamo().send(new UpdateItemCommand(marshalled(input))));
}

export async function docQuery(
  input: Plain<QueryInput, "ExclusiveStartKey" | "ExpressionAttributeValues">,
): Promise<Native<QueryOutput, "Items" | "LastEvaluatedKey">> {
  return unmarshalled(await dynamo().send(new QueryCommand(marshalled(input))));
}

/** One table's part of a batch read, its keys as plain values. */
export type DocKeysAndAttributes = Omit<KeysAndAttributes, "Keys"> & { Keys: Doc[] };

export async function docBatchGet(input: { RequestItems: Record<string, DocKeysAndAttributes> }): Promise<{
  Responses?: Record<string, Doc[]>;
  UnprocessedKeys?: Record<string, DocKeysAndAttributes>;
}> {
  const out = await dynamo().send(new BatchGetItemCommand({ RequestItems: mapValues(input.RequestItems, (t) => ({ ...t, Keys: t.Keys.map(toAttrs) })) }));
  return {
    Responses: out.Responses && mapValues(out.Responses, (items) => items.map(toDoc)),
    UnprocessedKeys: out.UnprocessedKeys && mapValues(out.UnprocessedKeys, (t) => ({ ...t, Keys: (t.Keys ?? []).map(toDoc) })),
  };
}

/** A put or a delete of a batch write, its item or key as plain values. */
export type DocWriteRequest = { PutRequest: { Item: Doc } } | { DeleteRequest: { Key: Doc } };

export async function docBatchWrite(input: { RequestItems: Record<string, DocWriteRequest[]> }): Promise<{
  UnprocessedItems?: Record<string, DocWriteRequest[]>;
}> {
  const out = await dynamo().send(
    new BatchWriteItemCommand({
      RequestItems: mapValues(input.RequestItems, (writes) =>
        writes.map((w) => ("PutRequest" in w ? { PutRequest: { Item: toAttrs(w.PutRequest.Item) } } : { DeleteRequest: { Key: toAttrs(w.DeleteRequest.Key) } })),
      ),
    }),
  );
  return {
    UnprocessedItems:
      out.UnprocessedItems &&
      mapValues(out.UnprocessedItems, (writes) =>
        writes.map((w): DocWriteRequest => (w.PutRequest ? { PutRequest: { Item: toDoc(w.PutRequest.Item!) } } : { DeleteRequest: { Key: toDoc(w.DeleteRequest!.Key!) } })),
      ),
  };
}

/** One entry of a transaction, its keys, item and expression values as plain values. */
export interface DocTransactItem {
  ConditionCheck?: Plain<ConditionCheck, "Key" | "ExpressionAttributeValues">;
  Put?: Plain<Put, "Item" | "ExpressionAttributeValues">;
  Delete?: Plain<Delete, "Key" | "ExpressionAttributeValues">;
  Update?: Plain<Update, "Key" | "ExpressionAttributeValues">;
}

export async function docTransactWrite(input: { TransactItems: DocTransactItem[] }): Promise<void> {
  const items = input.TransactItems.map((item) => mapValues(item as Record<string, object>, (part) => marshalled<object>(part)));
  await dynamo().send(new TransactWriteItemsCommand({ TransactItems: items as TransactWriteItem[] }));
}
