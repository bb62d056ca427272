/** The long-running suites start first (test/support/sequencer.ts): a stale name there would silently stop counting. */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import config from "../../vitest.config.js";
import LongRunningFirst, { LONG_RUNNING } from "../support/sequencer.js";

const root = join(import.meta.dirname, "../..");

describe("test order", () => {
  it("names only test files that exist, once each", () => {
    expect(LONG_RUNNING.filter((file) => !existsSync(join(root, file)))).toEqual([]);
    expect(new Set(LONG_RUNNING).size).toBe(LONG_RUNNING.length);
  });

  it("is the sequencer of the test run, with a worker per core", () => {
    expect(config.test?.sequence?.sequencer).toBe(LongRunningFirst);
    expect(config.test?.maxWorkers).toBeGreaterThanOrEqual(2);
  });
});
