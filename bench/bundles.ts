/**
 * Lambda bundles against the bare Hono + DynamoDB handler built in the same run (`npm run build`'s
 * options): each function's bundle size, and its cold start in isolated mode — a new process until
 * its first answer, median of 5 — against the bare handler's (its first answer includes a DynamoDB
 * GetItem). Rounds alternate the bare handler and every function, so machine noise hits both sides.
 * Budget for both: 1.25× (size: plus isomorphic-git where used). Writes the per-function table
 * after the summary rows (`details`).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildFunctions, functionSpecs, kib, sizeBudget, type BuildResult, type FunctionSpec } from "../local/isolated/bundle.js";
import { httpApiEvent } from "../local/isolated/events.js";
import { startIsolatedFunctions } from "../local/isolated/index.js";
import type { FunctionDefinition } from "../local/isolated/pool.js";
import { resources } from "../functions/platform/resources.js";
import type { BenchContext } from "./run.js";

const ROUNDS = 5;
const BUDGET = 1.25;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

/** The event of a function's first invocation: its own route (no token), or its worker's shape. */
async function firstEvent(spec: FunctionSpec, baseUrl: string): Promise<unknown> {
  const route = spec.routes[0];
  if (route) {
    const path = route.path.replace(/:[A-Za-z0-9_]+/g, "1").replace(/\*$/, "x");
    const routeKey = `${route.method} ${route.path.replace(/:([A-Za-z0-9_]+)/g, "{$1}").replace(/\*$/, "{proxy+}")}`;
    return httpApiEvent(new Request(`${baseUrl}${path}`, { method: route.method }), { routeKey });
  }
  switch (spec.kind) {
    case "url":
      return httpApiEvent(new Request(`${baseUrl}/api/v4/error_tracking/collector/api/1/store`, { method: "POST", body: "{}", headers: { "content-type": "application/json" } }), { routeKey: "$default" });
    case "queue":
      return { Records: [] };
    case "cron":
      return { source: "aws.scheduler", time: new Date().toISOString() };
    default:
      return {};
  }
}

let details = "";

/** The per-function table, for bench/RESULTS.md. */
export const detailsMarkdown = () => details;

export async function run(ctx: BenchContext) {
  const outDir = mkdtempSync(join(tmpdir(), "forgeline-bench-bundles-"));
  const build: BuildResult = await buildFunctions({ outDir });
  const isolated = await startIsolatedFunctions({ buildDir: outDir, prebuilt: true });
  try {
    const specs = functionSpecs();
    const definitions = specs.map((s) => isolated.definition(s.module));
    const bare: FunctionDefinition = {
      name: "bare",
      bundle: build.bare.file,
      timeoutMs: 29_000,
      env: () => ({ ...isolated.definition("identity/http/version").env(), TABLE: resources.mainTable() }),
    };
    const bareEvent = await httpApiEvent(new Request(`${ctx.baseUrl}/bare`), { routeKey: "$default" });
    const events = await Promise.all(specs.map((s) => firstEvent(s, ctx.baseUrl)));
    const times = new Map<string, number[]>();
    const coldStart = async (def: FunctionDefinition, event: unknown) => {
      await isolated.pool.recycle(def.name);
      await isolated.pool.invoke(def, event).catch(() => undefined); // an error answer ends a cold start too
      const last = isolated.pool.coldStarts().at(-1)!;
      times.set(def.name, [...(times.get(def.name) ?? []), last.firstResponseMs]);
      await isolated.pool.recycle(def.name);
    };
    for (let round = 0; round < ROUNDS; round++) {
      await coldStart(bare, bareEvent);
      for (let i = 0; i < definitions.length; i++) await coldStart(definitions[i]!, events[i]);
    }
    const bareMs = median(times.get("bare")!);
    const perFunction = build.functions.map((fn) => {
      const ms = median(times.get(fn.name)!);
      const budget = sizeBudget(fn, build, BUDGET);
      const libraries = (fn.git ? build.gitAlone.bytes : 0) + (fn.bzip2 ? build.bzip2Alone.bytes : 0) + (fn.markdown ? build.markdownAlone.bytes : 0);
      return { fn, ms, sizeRatio: (fn.bytes - libraries) / build.bare.bytes, startRatio: ms / bareMs, sizeOk: fn.bytes <= budget, startOk: ms <= BUDGET * bareMs };
    });
    perFunction.sort((a, b) => b.startRatio - a.startRatio);
    details = [
      `Per function (bundle size and cold start against the bare handler: ${kib(build.bare.bytes)}, cold start ${bareMs.toFixed(0)} ms; budget ${BUDGET}× each, size plus isomorphic-git ${kib(build.gitAlone.bytes)}, the bzip2 compressor ${kib(build.bzip2Alone.bytes)} and the Markdown renderer ${kib(build.markdownAlone.bytes)} where used):`,
      "",
      "| function | kind | bundle | size × bare | cold start (median of 5) | × bare |",
      "|---|---|---|---|---|---|",
      ...perFunction.map(
        (r) =>
          `| ${r.fn.name} | ${r.fn.kind} | ${kib(r.fn.bytes)}${r.fn.git ? " (incl. isomorphic-git)" : ""}${r.fn.markdown ? " (incl. the Markdown renderer)" : ""} | ${r.sizeRatio.toFixed(2)}×${r.sizeOk ? "" : " over"} | ${r.ms.toFixed(0)} ms | ${r.startRatio.toFixed(2)}×${r.startOk ? "" : " over"} |`,
      ),
    ].join("\n");
    const sizes = perFunction.map((r) => r.sizeRatio);
    const starts = perFunction.map((r) => r.startRatio);
    const worstSize = perFunction.reduce((a, b) => (b.sizeRatio > a.sizeRatio ? b : a));
    const worstStart = perFunction[0]!;
    return [
      {
        name: `Lambda bundle size, ${perFunction.length} functions (median; without isomorphic-git, bzip2 or the Markdown renderer where bundled)`,
        baseline: "bare Hono + @aws-sdk/client-dynamodb handler, same esbuild options",
        value: median(sizes) * build.bare.bytes / 1024,
        baselineValue: build.bare.bytes / 1024,
        unit: "KiB",
        note: `ratio = function / bare, budget ≤ ${BUDGET}×: ${sizes.filter((r) => r <= BUDGET).length} of ${sizes.length} within; largest ${worstSize.fn.name} ${worstSize.sizeRatio.toFixed(2)}×; per function below`,
      },
      {
        name: `Cold start, new process → first answer, median of ${ROUNDS}, ${perFunction.length} functions (median function)`,
        baseline: "the bare handler's cold start (its answer includes a DynamoDB GetItem), same rounds",
        value: median(starts) * bareMs,
        baselineValue: bareMs,
        unit: "ms",
        note: `ratio = function / bare, budget ≤ ${BUDGET}×: ${starts.filter((r) => r <= BUDGET).length} of ${starts.length} within; slowest ${worstStart.fn.name} ${worstStart.startRatio.toFixed(2)}×; per function below`,
      },
    ];
  } finally {
    await isolated.stop();
    rmSync(outDir, { recursive: true, force: true });
  }
}
