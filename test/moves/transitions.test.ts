/** Batched state changes against DynamoDB Local: one transaction when every condition holds, each on its own otherwise. */
import { describe, it, expect } from "vitest";
import { randomBytes } from "node:crypto";
import { getItems, putItem, updateItem, type TransactItem } from "../../functions/platform/db/table.js";
import { transactEach } from "../../functions/moves/domain/transitions.js";

const run = randomBytes(4).toString("hex");
const key = (i: number) => ({ pk: `TEST#transact-${run}#${i}`, sk: "ITEM" });
const bump = (i: number, expected: number): TransactItem[] => [
  { Update: { Key: key(i), UpdateExpression: "SET n = n + :one", ConditionExpression: "n = :expected", ExpressionAttributeValues: { ":one": 1, ":expected": expected } } },
];
const values = async (count: number) => (await getItems<{ n: number }>(Array.from({ length: count }, (_, i) => key(i)))).map((item) => item?.n);

describe("transactEach", () => {
  it("writes every group in one transaction when all conditions hold, without asking any group alone", async () => {
    for (let i = 0; i < 3; i++) await putItem({ ...key(i), n: 0 });
    const alone: number[] = [];
    const ok = await transactEach([0, 1, 2].map((i) => bump(i, 0)), async (i) => (alone.push(i), false));
    expect(ok).toEqual([true, true, true]);
    expect(alone).toEqual([]);
    expect(await values(3)).toEqual([1, 1, 1]);
  });

  it("falls back to each group alone when one condition fails, so the others still go through", async () => {
    await updateItem({ ...key(1), update: "SET n = :n", values: { ":n": 5 } }); // group 1's condition no longer holds
    const groups = [0, 1, 2].map((i) => bump(i, 1));
    const ok = await transactEach(groups, async (i) => {
      try {
        await updateItem({ ...key(i), update: "SET n = n + :one", condition: "n = :expected", values: { ":one": 1, ":expected": 1 } });
        return true;
      } catch {
        return false;
      }
    });
    expect(ok).toEqual([true, false, true]);
    expect(await values(3)).toEqual([2, 5, 2]);
  });

  it("splits groups over transactions of at most 100 items", async () => {
    const count = 130;
    for (let i = 0; i < count; i++) await putItem({ ...key(i), n: 0 });
    const alone: number[] = [];
    const ok = await transactEach(Array.from({ length: count }, (_, i) => bump(i, 0)), async (i) => (alone.push(i), false));
    expect(ok.every(Boolean)).toBe(true);
    expect(alone).toEqual([]);
    expect(await values(count)).toEqual(Array.from({ length: count }, () => 1));
  });
});
