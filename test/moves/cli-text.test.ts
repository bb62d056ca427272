/**
 * What `npm run moves` prints without a server: its help, and a plan's figures in the units an
 * operator reads (a 600-byte repository is not "0.0 MiB", a one-second copy is not "about 1 min").
 */
import { describe, it, expect } from "vitest";
import { describeMovePlan, durationText, runMovesCli, USAGE } from "../../functions/moves/cli/commands.js";
import type { Api } from "../../functions/moves/cli/client.js";
import type { MovePlan } from "../../functions/moves/domain/move-plan.js";

/** An API that must not be called: help and bad usage are answered before any request. */
const unreachable = new Proxy({} as Api, {
  get: () => () => {
    throw new Error("the CLI called the API");
  },
});

describe("npm run moves -- --help", () => {
  it.each([["--help"], ["-h"], ["help"], ["plan", "--help"]])("prints the usage for %s and exits 0", async (...argv) => {
    const lines: string[] = [];
    expect(await runMovesCli(argv, unreachable, (l) => lines.push(l))).toBe(0);
    expect(lines).toEqual([USAGE]);
  });

  it("still refuses an option without its value", async () => {
    await expect(runMovesCli(["plan", "--from"], unreachable, () => undefined)).rejects.toThrow("--from needs a value");
  });
});

describe("a plan as the CLI prints it", () => {
  it("says durations in seconds, minutes or hours", () => {
    expect([0.2, 1, 59, 60, 61, 3599, 3600, 3601, 5400].map(durationText)).toEqual(["1 s", "1 s", "59 s", "1 min", "2 min", "60 min", "1 h", "1 h 1 min", "1 h 30 min"]);
  });

  it("says sizes and rates in the unit that fits them", () => {
    const plan: MovePlan = {
      source_storage_name: "secondary",
      destination_storage_name: "default",
      types: [
        { type: "project", repositories: 1, bytes: 588 },
        { type: "snippet", repositories: 0, bytes: 0 },
        { type: "group", repositories: 2, bytes: 3 * 1024 ** 3 },
      ],
      total_bytes: 3 * 1024 ** 3 + 588,
      needed_bytes: Math.ceil((3 * 1024 ** 3 + 588) * 1.1),
      destination_replicas: [
        { replica: 1, free_bytes: 80 * 1024 ** 3 },
        { replica: 2, free_bytes: null },
      ],
      fits: true,
      copy_bytes_per_second: 39_200,
      estimated_seconds: 1,
    };
    expect(describeMovePlan(plan)).toEqual([
      "Moving everything off secondary to default:",
      "  projects       1 repositories         588 B",
      "  snippets       0 repositories           0 B",
      "  groups         2 repositories      3.00 GiB",
      "  total                              3.00 GiB; needs 3.30 GiB free with the margin",
      "  default replica 1: 80.00 GiB free",
      "  default replica 2: free space unknown (its folder cannot be read)",
      "Estimated duration: about 1 s at 38.3 KiB/s measured here.",
      "It fits.",
    ]);
  });
});
