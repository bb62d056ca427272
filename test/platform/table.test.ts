/** The single-table helpers against DynamoDB Local: batch reads and reserved id blocks. */
import { describe, it, expect } from "vitest";
import { randomBytes } from "node:crypto";
import { getItems, nextId, nextIds, putItem, queryAll, queryPage, writeBatch } from "../../functions/platform/db/table.js";
import { dynamo } from "../../functions/platform/aws.js";

describe("getItems", () => {
  it("reads more than one batch (100 keys) in the order asked, with absent keys and repeats", async () => {
    const run = randomBytes(4).toString("hex");
    const key = (i: number) => ({ pk: `TEST#getitems-${run}#${i}`, sk: "ITEM" });
    for (let i = 0; i < 150; i += 2) await putItem({ ...key(i), n: i });
    const asked = [...Array.from({ length: 150 }, (_, i) => key(149 - i)), key(4), key(4)];
    const items = await getItems<{ n: number }>(asked);
    expect(items).toHaveLength(asked.length);
    expect(items.map((item) => item?.n)).toEqual(asked.map((_, i) => (i < 150 ? (149 - i) % 2 === 0 ? 149 - i : undefined : 4)));
  });

  it("answers an empty list with an empty list", async () => {
    expect(await getItems([])).toEqual([]);
  });
});

describe("nextIds", () => {
  it("reserves consecutive blocks that never overlap, also against single allocations racing them", async () => {
    const sequence = `test-${randomBytes(4).toString("hex")}`;
    const blocks = await Promise.all([nextIds(sequence, 5), nextIds(sequence, 3), nextId(sequence).then((id) => [id]), nextIds(sequence, 7)]);
    for (const block of blocks) block.forEach((id, i) => expect(id).toBe(block[0]! + i));
    const all = blocks.flat().sort((a, b) => a - b);
    expect(all).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
    expect(await nextIds(sequence, 0)).toEqual([]);
  });
});

describe("writeBatch and queryAll", () => {
  it("puts and deletes more than one batch, and reads back only the projected attributes", async () => {
    const pk = `TEST#batch-${randomBytes(4).toString("hex")}`;
    const items = Array.from({ length: 60 }, (_, i) => ({ pk, sk: `ITEM#${String(i).padStart(3, "0")}`, n: i, extra: "x".repeat(20) }));
    await writeBatch(items.map((item) => ({ put: item })));
    const read = await queryAll<Record<string, unknown>>({ pk, projection: ["sk", "n"], consistent: true });
    expect(read).toEqual(items.map(({ sk, n }) => ({ sk, n })));
    await writeBatch(items.slice(0, 50).map(({ sk }) => ({ delete: { pk, sk } })));
    expect((await queryAll<{ n: number }>({ pk, consistent: true })).map((i) => i.n)).toEqual(Array.from({ length: 10 }, (_, i) => 50 + i));
  });
});

describe("queryPage", () => {
  it("finds a filtered item far into a range in a few Query calls, not a few items per call", async () => {
    const pk = `TEST#filtered-${randomBytes(4).toString("hex")}`;
    await writeBatch(Array.from({ length: 600 }, (_, i) => ({ put: { pk, sk: `ITEM#${String(i).padStart(3, "0")}`, n: i } })));
    let queries = 0;
    const name = `queryCounter${Math.random()}`;
    dynamo().middlewareStack.add((next, context) => async (args) => {
      if (context.commandName === "QueryCommand") queries++;
      return next(args);
    }, { step: "initialize", name });
    try {
      const page = await queryPage<{ n: number }>({ pk, filter: { expression: "n = :n", values: { ":n": 3 } }, offset: 0, limit: 1, consistent: true });
      expect(page.items.map((i) => i.n)).toEqual([3]);
    } finally {
      dynamo().middlewareStack.remove(name);
    }
    expect(queries).toBeLessThanOrEqual(3);
  });
});
