/**
 * Sidekiq's processed and failed jobs (`platform/job-stats.ts`): one item of a shape of its own, apart
 * from the `COUNT#<name>` running counts that `readCount`/`addToCount` own.
 */
import { describe, it, expect } from "vitest";
import { countJobs, JOB_STATS_KEY } from "../../functions/platform/job-stats.js";
import { getItem } from "../../functions/platform/db/table.js";

describe("job stats", () => {
  it("count on their own item, never on a COUNT#<name> count", async () => {
    const stats = () => getItem<{ processed?: number; failed?: number }>(JOB_STATS_KEY.pk, JOB_STATS_KEY.sk);
    const countsNamedJobs = () => getItem("COUNT#jobs", "COUNT");
    const before = { stats: await stats(), counts: await countsNamedJobs() };
    await countJobs(2, 1);
    const after = await stats();
    // Other tests' workers may count meanwhile: at least this test's jobs.
    expect(after?.processed ?? 0).toBeGreaterThanOrEqual((before.stats?.processed ?? 0) + 2);
    expect(after?.failed ?? 0).toBeGreaterThanOrEqual((before.stats?.failed ?? 0) + 1);
    expect(JOB_STATS_KEY.pk.startsWith("COUNT#")).toBe(false);
    expect(await countsNamedJobs()).toEqual(before.counts);
  });
});
