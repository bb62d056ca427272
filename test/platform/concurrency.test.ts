import { describe, it, expect } from "vitest";
import { mapConcurrently, mapSettled } from "../../functions/platform/concurrency.js";

describe("mapConcurrently", () => {
  it("keeps input order and never has more than `limit` calls pending", async () => {
    let pending = 0;
    let most = 0;
    const out = await mapConcurrently([50, 10, 30, 0, 20, 40, 5], 3, async (ms, i) => {
      most = Math.max(most, ++pending);
      await new Promise((r) => setTimeout(r, ms));
      pending--;
      return `${i}:${ms}`;
    });
    expect(out).toEqual(["0:50", "1:10", "2:30", "3:0", "4:20", "5:40", "6:5"]);
    expect(most).toBe(3);
  });

  it("answers an empty list, and rejects with the first failure", async () => {
    expect(await mapConcurrently([], 4, async () => 1)).toEqual([]);
    await expect(mapConcurrently([1, 2, 3], 2, async (n) => (n === 2 ? Promise.reject(new Error("two")) : n))).rejects.toThrow("two");
  });
});

describe("mapSettled", () => {
  it("runs every call to its end despite failures and returns each outcome in input order", async () => {
    const finished: number[] = [];
    const out = await mapSettled([30, 0, 10], 2, async (ms, i) => {
      await new Promise((r) => setTimeout(r, ms));
      finished.push(i);
      if (i === 1) throw new Error("one");
      return ms;
    });
    expect(finished.sort()).toEqual([0, 1, 2]);
    expect(out.map((o) => (o.ok ? o.value : (o.error as Error).message))).toEqual([30, "one", 10]);
  });
});
