/** DynamoDB with plain values (`platform/db/document.ts`) against DynamoDB Local: what goes in comes back out. */
import { describe, it, expect } from "vitest";
import { randomBytes } from "node:crypto";
import { docBatchGet, docBatchWrite, docDelete, docGet, docPut, docQuery, docTransactWrite, docUpdate } from "../../functions/platform/db/document.js";
import { isConditionFailure } from "../../functions/platform/db/table.js";
import { resources } from "../../functions/platform/resources.js";

const TableName = () => resources.mainTable();
const run = () => `TEST#document-${randomBytes(4).toString("hex")}`;

describe("document calls", () => {
  it("store and read back nested maps, lists, numbers, booleans, null and bytes; undefined values are left out", async () => {
    const pk = run();
    const item = { pk, sk: "ITEM", s: "", n: -12.5, big: Number.MAX_SAFE_INTEGER, yes: true, none: null, bytes: new Uint8Array([0, 1, 255]), list: [1, "two", { three: [3] }], map: { a: { b: "c" }, gone: undefined }, gone: undefined };
    await docPut({ TableName: TableName(), Item: item });
    const { Item } = await docGet({ TableName: TableName(), Key: { pk, sk: "ITEM" }, ConsistentRead: true });
    expect(Item).toEqual({ pk, sk: "ITEM", s: "", n: -12.5, big: Number.MAX_SAFE_INTEGER, yes: true, none: null, bytes: new Uint8Array([0, 1, 255]), list: [1, "two", { three: [3] }], map: { a: { b: "c" } } });
    expect(Object.keys(Item!)).not.toContain("gone");
  });

  it("update and delete return the attributes they were asked for; a failed condition is a condition failure", async () => {
    const pk = run();
    await docPut({ TableName: TableName(), Item: { pk, sk: "ITEM", n: 1 } });
    const updated = await docUpdate({ TableName: TableName(), Key: { pk, sk: "ITEM" }, UpdateExpression: "ADD n :one SET tags = :tags", ExpressionAttributeValues: { ":one": 1, ":tags": ["x"] }, ReturnValues: "ALL_NEW" });
    expect(updated.Attributes).toEqual({ pk, sk: "ITEM", n: 2, tags: ["x"] });
    const refused = await docDelete({ TableName: TableName(), Key: { pk, sk: "ITEM" }, ConditionExpression: "n = :n", ExpressionAttributeValues: { ":n": 5 } }).catch((err: unknown) => err);
    expect(isConditionFailure(refused)).toBe(true);
    const deleted = await docDelete({ TableName: TableName(), Key: { pk, sk: "ITEM" }, ReturnValues: "ALL_OLD" });
    expect(deleted.Attributes).toEqual({ pk, sk: "ITEM", n: 2, tags: ["x"] });
    expect((await docDelete({ TableName: TableName(), Key: { pk, sk: "ITEM" }, ReturnValues: "ALL_OLD" })).Attributes).toBeUndefined();
  });

  it("pages a query with the plain key it returns, and reads and writes in batches and transactions", async () => {
    const pk = run();
    await docBatchWrite({ RequestItems: { [TableName()]: [1, 2, 3, 4, 5].map((i) => ({ PutRequest: { Item: { pk, sk: `I#${i}`, i } } })) } });
    await docTransactWrite({
      TransactItems: [
        { Put: { TableName: TableName(), Item: { pk, sk: "I#6", i: 6 }, ConditionExpression: "attribute_not_exists(pk)" } },
        { Update: { TableName: TableName(), Key: { pk, sk: "I#1" }, UpdateExpression: "SET i = :ten", ExpressionAttributeValues: { ":ten": 10 } } },
        { Delete: { TableName: TableName(), Key: { pk, sk: "I#2" } } },
      ],
    });
    const seen: number[] = [];
    let start: Record<string, unknown> | undefined;
    let pages = 0;
    do {
      const out = await docQuery({ TableName: TableName(), KeyConditionExpression: "pk = :pk", ExpressionAttributeValues: { ":pk": pk }, Limit: 2, ExclusiveStartKey: start, ConsistentRead: true });
      seen.push(...(out.Items ?? []).map((item) => item.i as number));
      start = out.LastEvaluatedKey;
      if (start) expect(start).toEqual({ pk, sk: expect.stringMatching(/^I#/) });
      pages++;
    } while (start);
    expect(seen).toEqual([10, 3, 4, 5, 6]);
    expect(pages).toBeGreaterThanOrEqual(3);
    const got = await docBatchGet({ RequestItems: { [TableName()]: { Keys: [{ pk, sk: "I#3" }, { pk, sk: "I#2" }], ConsistentRead: true } } });
    expect(got.Responses?.[TableName()]).toEqual([{ pk, sk: "I#3", i: 3 }]);
    await docBatchWrite({ RequestItems: { [TableName()]: [1, 3, 4, 5, 6].map((i) => ({ DeleteRequest: { Key: { pk, sk: `I#${i}` } } })) } });
    expect((await docQuery({ TableName: TableName(), KeyConditionExpression: "pk = :pk", ExpressionAttributeValues: { ":pk": pk }, ConsistentRead: true })).Items).toEqual([]);
  });
});
