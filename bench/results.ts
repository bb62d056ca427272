/**
 * The rows of `bench/RESULTS.md`: one Markdown table, the stamps of the runs that measured it, and
 * the details a benchmark adds below (per-function figures).
 */
export interface Row {
  benchmark: string;
  baseline: string;
  value: string;
  baselineValue: string;
  ratio: number;
  note?: string;
}

export const tableRow = (r: Row) => `| ${r.benchmark} | ${r.value} | ${r.baseline} | ${r.baselineValue} | ${r.ratio.toFixed(2)}×${r.note ? ` (${r.note})` : ""} |`;

/**
 * The README's short form of `bench/RESULTS.md`'s table: per row its name, the measured value, the
 * ratio to its same-run baseline and the target, if the row names one. The baselines and what the
 * figures say are in docs/benchmarks.md.
 */
export function headlineTable(results: string): string {
  const rows = results.slice(0, results.indexOf("\n\n")).split("\n").slice(2);
  return [
    "| benchmark | value | × baseline | target |",
    "|---|---|---|---|",
    ...rows.map((line) => {
      const [benchmark = "", value = "", , , ratioCell = ""] = line.slice(2, -2).split(" | ");
      const ratio = /^[\d.]+×/.exec(ratioCell)?.[0] ?? ratioCell;
      const target = /(?:\(|; )target:? (.*?)(?:;|\)$)/.exec(ratioCell)?.[1] ?? /budget ([^:;)]*)/.exec(ratioCell)?.[1] ?? "";
      return `| ${benchmark} | ${value} | ${ratio} | ${target} |`;
    }),
  ].join("\n") + "\n";
}

/** `doc` with the text between its `<!-- bench:<marker>:start -->` and `<!-- bench:<marker>:end -->` lines replaced by `table`. */
export function withTable(doc: string, table: string, marker = "table"): string {
  const start = `<!-- bench:${marker}:start -->\n`;
  const end = `<!-- bench:${marker}:end -->`;
  const from = doc.indexOf(start);
  const to = doc.indexOf(end, from);
  if (from < 0 || to < 0) throw new Error(`no ${start.trim()} … ${end} in the document`);
  return doc.slice(0, from + start.length) + table + doc.slice(to);
}

/** A row's identity across runs: its name with the counts taken out ("… 104 functions" stays one row). */
const rowIdentity = (benchmark: string) => benchmark.replace(/\d+/g, "N");

/**
 * A subset run (`BENCH_ONLY`) updates only its own rows of `bench/RESULTS.md` and keeps the others
 * with their date; its stamp is added below the earlier ones (replacing the same subset's last). Its details, if it has any, replace
 * the text below the stamps.
 */
export function mergeSubset(previous: string, rows: Row[], stamp: string, details: string): string {
  const lines = previous.split("\n");
  const tableEnd = lines.findIndex((l, i) => i > 1 && !l.startsWith("|"));
  const head = lines.slice(0, 2);
  const byIdentity = new Map(lines.slice(2, tableEnd).map((l) => [rowIdentity(l.split(" | ")[0]!.slice(2)), l] as const));
  for (const r of rows) byIdentity.set(rowIdentity(r.benchmark), tableRow(r));
  const rest = lines.slice(tableEnd).join("\n").trim();
  // A subset measured again replaces its own earlier stamp.
  const subset = / \(`BENCH_ONLY=[^`]*`\)\.$/.exec(stamp)?.[0];
  const stamps = rest.split("\n\n").filter((p) => p.startsWith("Measured ") && !(subset && p.endsWith(subset)));
  const oldDetails = rest.split("\n\n").filter((p) => !p.startsWith("Measured ")).join("\n\n");
  return `${[...head, ...byIdentity.values()].join("\n")}\n\n${[...stamps, stamp].join("\n\n")}${details || (oldDetails ? `\n\n${oldDetails}` : "")}\n`;
}
