/**
 * `npm run build`: every function of the route table and of `workers` bundled as it deploys (SST's
 * Node options, `local/isolated/bundle.ts`), one folder per function under `.build/`, and a table of
 * sizes against a bare Hono + DynamoDB handler bundled the same way.
 */
import { relative } from "node:path";
import { BUDGET_RATIO } from "../local/isolated/budget.js";
import { buildFunctions, kib, ROOT, sizeBudget } from "../local/isolated/bundle.js";

const started = Date.now();
const build = await buildFunctions();
const rows = build.functions.map((fn) => ({ fn, budget: sizeBudget(fn, build, BUDGET_RATIO) })).sort((a, b) => b.fn.bytes - a.fn.bytes);
const width = Math.max(...rows.map((r) => r.fn.name.length));
console.log(`${"function".padEnd(width)}  kind    size       × bare  budget`);
for (const { fn, budget } of rows) {
  const over = fn.bytes > budget ? "  OVER BUDGET" : "";
  const extras = [fn.git && "isomorphic-git", fn.bzip2 && "bzip2", fn.markdown && "Markdown"].filter(Boolean).join(", ");
  console.log(`${fn.name.padEnd(width)}  ${fn.kind!.padEnd(6)}  ${kib(fn.bytes).padStart(9)}  ${(fn.bytes / build.bare.bytes).toFixed(2).padStart(5)}×  ${kib(budget)}${extras ? ` (+ ${extras})` : ""}${over}`);
}
console.log(`\n${build.functions.length} functions in ${relative(process.cwd(), `${ROOT}/.build`) || ".build"}/ (${((Date.now() - started) / 1000).toFixed(1)} s)`);
console.log(
  `bare Hono + @aws-sdk/client-dynamodb handler: ${kib(build.bare.bytes)}; isomorphic-git alone: ${kib(build.gitAlone.bytes)}; bzip2 alone: ${kib(build.bzip2Alone.bytes)}; Markdown alone: ${kib(build.markdownAlone.bytes)}; budget ${BUDGET_RATIO}× bare (+ those where used)`,
);
const over = rows.filter((r) => r.fn.bytes > r.budget);
if (over.length) {
  console.error(`${over.length} bundle(s) over budget`);
  process.exitCode = 1;
}
