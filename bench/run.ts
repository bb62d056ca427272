/**
 * `npm run bench`: starts the embedded runtime on a temporary folder and measures each capability
 * against a baseline taken in the same run (a bare route on the same server, the raw stand-in, or
 * `cp -r`/`tar`), so the ratios hold on any machine. Prints a Markdown table and writes it to
 * `bench/RESULTS.md`, whose table it also writes into `docs/benchmarks.md` between its markers, and
 * its short form into the README's.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { startRuntime, defaultLocalConfig } from "../local/runtime.js";
import { load, stopLoadClient } from "./load.js";
import { checkNodeVersion } from "../local/node-version.js";
import { headlineTable, mergeSubset, tableRow, withTable, type Row } from "./results.js";

const fmt = (n: number, digits = 1) => n.toFixed(digits);

export interface BenchContext {
  baseUrl: string;
  adminToken: string;
  dataDir: string;
}

/** What a context's `bench/<name>.ts` `run()` returns: latency/throughput rows or a value row. */
type ContextRow = { name: string; baseline: string; note?: string } & (
  | { p50: number; p99: number; baselineP50: number; baselineP99: number; rps?: number; baselineRps?: number }
  | { value: number; baselineValue: number; unit: string; higherIsBetter?: boolean }
);

function toRow(r: ContextRow): Row {
  if ("value" in r) {
    const ratio = r.higherIsBetter === false ? r.baselineValue / r.value : r.value / r.baselineValue;
    return { benchmark: r.name, baseline: r.baseline, value: `${fmt(r.value)} ${r.unit}`, baselineValue: `${fmt(r.baselineValue)} ${r.unit}`, ratio, note: r.note };
  }
  const lat = (rps: number | undefined, p50: number, p99: number) => `${rps ? `${fmt(rps, 0)} req/s, ` : ""}p50 ${fmt(p50)} ms, p99 ${fmt(p99)} ms`;
  // Throughput ratio when both sides report it, otherwise the p50 latency ratio (baseline / value).
  const ratio = r.rps && r.baselineRps ? r.rps / r.baselineRps : r.baselineP50 / Math.max(r.p50, 0.001);
  return { benchmark: r.name, baseline: r.baseline, value: lat(r.rps, r.p50, r.p99), baselineValue: lat(r.baselineRps, r.baselineP50, r.baselineP99), ratio, note: r.note };
}

async function main() {
  checkNodeVersion((line) => console.error(line)); // one line, instead of the AWS SDK's nine
  process.env.LOG_LEVEL = "error";
  process.env.FORGELINE_BENCH_ROUTES = "1";
  const dataDir = mkdtempSync(join(tmpdir(), "forgeline-bench-"));
  const runtime = await startRuntime({ dataDir, persistent: false, config: { ...defaultLocalConfig(dataDir), offering: "hosted" } });
  const rows: Row[] = [];
  /** Tables a benchmark adds below the summary (per-function figures). */
  const details: string[] = [];
  try {
    const token = runtime.bootstrap.token!;
    const base = runtime.baseUrl;
    for (let i = 0; i < 30; i++) {
      await fetch(`${base}/api/v4/projects`, { method: "POST", headers: { "Private-Token": token, "Content-Type": "application/json" }, body: JSON.stringify({ name: `bench-${i}` }) });
    }
    // `BENCH_ONLY=ingest,moves npm run bench` runs a subset ("projects" names the list benchmark below).
    const only = process.env.BENCH_ONLY?.split(",").map((s) => s.trim());
    if (!only || only.includes("projects")) {
      const total = 3000;
      const concurrency = 16;
      await load({ total: 300, concurrency, urls: [`${base}/__bench/bare`] }); // warm-up
      const bare = await load({ total, concurrency, urls: [`${base}/__bench/bare`] });
      const list = await load({ total, concurrency, urls: [`${base}/api/v4/projects?per_page=20`], headers: { "Private-Token": token } });
      rows.push({
        benchmark: "GET /api/v4/projects (authenticated, 20 per page)",
        baseline: "bare Hono route, same server",
        value: `${fmt(list.rps, 0)} req/s, p50 ${fmt(list.p50)} ms, p99 ${fmt(list.p99)} ms`,
        baselineValue: `${fmt(bare.rps, 0)} req/s, p50 ${fmt(bare.p50)} ms, p99 ${fmt(bare.p99)} ms`,
        ratio: list.rps / bare.rps,
        note: list.failures ? `${list.failures} failed requests` : undefined,
      });
    }
    // `moves` last: it moves the other benchmarks' repositories off their storages.
    for (const name of ["ingest", "errortracking", "hooks", "academic", "backup", "bundles", "keyset", "git-http", "moves"]) {
      if (only && !only.includes(name)) continue;
      const file = resolve(import.meta.dirname, `${name}.ts`);
      if (!existsSync(file)) continue;
      const mod = (await import(pathToFileURL(file).href)) as { run?: (ctx: BenchContext) => Promise<ContextRow[]>; detailsMarkdown?: () => string };
      if (mod.run) rows.push(...(await mod.run({ baseUrl: base, adminToken: token, dataDir })).map(toRow));
      if (mod.detailsMarkdown) details.push(mod.detailsMarkdown());
    }
  } finally {
    stopLoadClient();
    await runtime.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  const table = [
    "| benchmark | value | baseline (same run) | baseline value | ratio |",
    "|---|---|---|---|---|",
    ...rows.map(tableRow),
  ].join("\n");
  const stamp = `Measured ${new Date().toISOString().slice(0, 10)} on ${(await import("node:os")).cpus().length} cores, Node ${process.version}.`;
  const more = details.filter(Boolean).map((d) => `\n\n${d}`).join("");
  console.log(`\n${table}\n\n${stamp}${more}`);
  const results = resolve(import.meta.dirname, "RESULTS.md");
  const only = process.env.BENCH_ONLY;
  const written = only && existsSync(results) ? mergeSubset(readFileSync(results, "utf8"), rows, `${stamp.slice(0, -1)} (\`BENCH_ONLY=${only}\`).`, more) : `${table}\n\n${stamp}${more}\n`;
  writeFileSync(results, written);
  // The documentation shows the same table, and the README its short form (test/docs/figures.test.ts compares them).
  const doc = resolve(import.meta.dirname, "../docs/benchmarks.md");
  writeFileSync(doc, withTable(readFileSync(doc, "utf8"), written.slice(0, written.indexOf("\n\n") + 1)));
  const readme = resolve(import.meta.dirname, "../README.md");
  writeFileSync(readme, withTable(readFileSync(readme, "utf8"), headlineTable(written), "headline"));
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
