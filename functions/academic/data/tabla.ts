/**
 * The two table operations the platform helpers do not offer: a strongly consistent Query of a whole
 * partition (a cached list must not be older than the version stamp it is filed under) and batched
 * writes (imports, deleting a record's associated data).
 */
import { BatchWriteCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { dynamo } from "../../platform/aws.js";
import { resources } from "../../platform/resources.js";
import type { Item } from "../../platform/db/table.js";

export async function consultarParticion<T = Item>(pk: string, skPrefix?: string, proyeccion?: string[]): Promise<T[]> {
  const items: T[] = [];
  let startKey: Record<string, unknown> | undefined;
  const names: Record<string, string> = { "#pk": "pk", ...(skPrefix ? { "#sk": "sk" } : {}) };
  proyeccion?.forEach((p, i) => (names[`#p${i}`] = p));
  do {
    const out = await dynamo().send(
      new QueryCommand({
        TableName: resources.mainTable(),
        KeyConditionExpression: skPrefix ? "#pk = :pk AND begins_with(#sk, :sk)" : "#pk = :pk",
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ":pk": pk, ...(skPrefix ? { ":sk": skPrefix } : {}) },
        ProjectionExpression: proyeccion?.map((_, i) => `#p${i}`).join(", "),
        ConsistentRead: true,
        ExclusiveStartKey: startKey,
      }),
    );
    items.push(...((out.Items ?? []) as T[]));
    startKey = out.LastEvaluatedKey;
  } while (startKey);
  return items;
}

type Escritura = { put: Item } | { delete: { pk: string; sk: string } };

/** Writes in batches of 25, several batches at a time, retrying unprocessed items. */
export async function escribirEnLotes(escrituras: readonly Escritura[], paralelos = 8): Promise<void> {
  const lotes: Escritura[][] = [];
  for (let i = 0; i < escrituras.length; i += 25) lotes.push(escrituras.slice(i, i + 25));
  let siguiente = 0;
  const trabajar = async () => {
    while (siguiente < lotes.length) {
      const lote = lotes[siguiente++]!;
      let pedidos: unknown[] = lote.map((e) => ("put" in e ? { PutRequest: { Item: e.put } } : { DeleteRequest: { Key: e.delete } }));
      for (let intento = 0; pedidos.length > 0; intento++) {
        if (intento > 8) throw new Error("DynamoDB kept items unprocessed");
        if (intento > 0) await new Promise((r) => setTimeout(r, 50 * 2 ** intento));
        const out = await dynamo().send(new BatchWriteCommand({ RequestItems: { [resources.mainTable()]: pedidos as never } }));
        pedidos = Object.values(out.UnprocessedItems ?? {})[0] ?? [];
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(paralelos, lotes.length) }, trabajar));
}
