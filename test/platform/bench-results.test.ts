/**
 * `BENCH_ONLY=<subset> npm run bench` updates only the subset's rows of bench/RESULTS.md: the other
 * rows, their stamp and the per-function details of an earlier full run stay.
 */
import { describe, it, expect } from "vitest";
import { headlineTable, mergeSubset, tableRow, withTable, type Row } from "../../bench/results.js";

const row = (benchmark: string, ratio: number): Row => ({ benchmark, baseline: "bare", value: `${ratio * 10} req/s`, baselineValue: "10 req/s", ratio });
const header = "| benchmark | value | baseline (same run) | baseline value | ratio |\n|---|---|---|---|---|";
const full = [header, tableRow(row("GET /api/v4/projects", 0.1)), tableRow(row("Ingest: POST envelope (1 exception event) → SQS, 200", 0.6)), tableRow(row("Lambda bundle size, 104 functions", 1.4)), "", "Measured 2026-11-21 on 2 cores, Node v20.", "", "Per function:", "", "| function | size |", "|---|---|", "| a | 1 KiB |", ""].join("\n");

describe("a subset run of the bench", () => {
  it("replaces its own rows by name (counts aside), keeps the others, their stamp and the details", () => {
    const merged = mergeSubset(full, [row("Ingest: POST envelope (1 exception event) → SQS, 200", 0.7), row("Ingest memory under 40 hostile envelopes", 0.5)], "Measured 2026-11-25 on 2 cores, Node v22 (`BENCH_ONLY=ingest`).", "");
    const table = merged.split("\n\n")[0]!.split("\n");
    expect(table).toEqual([...header.split("\n"), tableRow(row("GET /api/v4/projects", 0.1)), tableRow(row("Ingest: POST envelope (1 exception event) → SQS, 200", 0.7)), tableRow(row("Lambda bundle size, 104 functions", 1.4)), tableRow(row("Ingest memory under 40 hostile envelopes", 0.5))]);
    expect(merged).toContain("Measured 2026-11-21 on 2 cores, Node v20.\n\nMeasured 2026-11-25 on 2 cores, Node v22 (`BENCH_ONLY=ingest`).");
    expect(merged).toContain("Per function:\n\n| function | size |\n|---|---|\n| a | 1 KiB |");

    const again = mergeSubset(merged, [row("Lambda bundle size, 110 functions", 1.2)], "Measured 2026-11-26 on 2 cores, Node v22 (`BENCH_ONLY=ingest`).", "\n\nPer function:\n\n| b | 2 KiB |");
    expect(again.match(/BENCH_ONLY=ingest/g)).toHaveLength(1);
    expect(again).toContain(tableRow(row("Lambda bundle size, 110 functions", 1.2)));
    expect(again).not.toContain("104 functions");
    expect(again).toContain("| b | 2 KiB |");
    expect(again).not.toContain("| a | 1 KiB |");
  });
});

describe("the table in docs/benchmarks.md", () => {
  it("is replaced between its markers, the text around it kept", () => {
    const doc = "# Benchmarks\n\nIntro.\n<!-- bench:table:start -->\n| old |\n<!-- bench:table:end -->\n\nAnalysis.\n";
    expect(withTable(doc, "| new |\n|---|\n")).toBe("# Benchmarks\n\nIntro.\n<!-- bench:table:start -->\n| new |\n|---|\n<!-- bench:table:end -->\n\nAnalysis.\n");
    expect(() => withTable("# Benchmarks\n", "| new |\n")).toThrow(/bench:table:start/);
  });
});

describe("the README's short form of the table", () => {
  it("keeps each row's name, value and ratio, and the target the row names", () => {
    const results = [
      header,
      tableRow({ ...row("Error storm: 2000 events of one error (2 at once)", 0.62), note: "target ≥ 0.5×" }),
      tableRow({ ...row("Ingest memory: 40 envelopes", 0), note: "peak growth; target ≤ 256 MiB; answers: 20×200" }),
      tableRow({ ...row("Lambda bundle size, 306 functions", 1.17), note: "ratio = function / bare, budget ≤ 1.25×: 306 of 306 within" }),
      tableRow(row("GET /api/v4/projects", 0.05)),
      "",
      "Measured 2026-12-07 on 2 cores, Node v20.",
    ].join("\n");
    expect(headlineTable(results).split("\n")).toEqual([
      "| benchmark | value | × baseline | target |",
      "|---|---|---|---|",
      "| Error storm: 2000 events of one error (2 at once) | 6.2 req/s | 0.62× | ≥ 0.5× |",
      "| Ingest memory: 40 envelopes | 0 req/s | 0.00× | ≤ 256 MiB |",
      "| Lambda bundle size, 306 functions | 11.7 req/s | 1.17× | ≤ 1.25× |",
      "| GET /api/v4/projects | 0.5 req/s | 0.05× |  |",
      "",
    ]);
  });

  it("is written between the README's own markers", () => {
    const readme = "# Forgeline\n<!-- bench:headline:start -->\n| old |\n<!-- bench:headline:end -->\n<!-- bench:table:start -->\n| kept |\n<!-- bench:table:end -->\n";
    expect(withTable(readme, "| new |\n", "headline")).toBe("# Forgeline\n<!-- bench:headline:start -->\n| new |\n<!-- bench:headline:end -->\n<!-- bench:table:start -->\n| kept |\n<!-- bench:table:end -->\n");
  });
});
