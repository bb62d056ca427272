/** The single-table helpers against DynamoDB Local: batch reads and reserved id blocks. */
import { describe, it, expect } from "vitest";
import { randomBytes } from "node:crypto";
import { getItems, nextId, nextIds, putItem, queryAll, writeBatch } from "../../functions/platform/db/table.js";

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
