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

/** `doc` with the text between its `<!-- bench:table:start -->` and `<!-- bench:table:end -->` lines replaced by `table`. */
export function withTable(doc: string, table: string): string {
  const start = "<!-- bench:table:start -->\n";
  const end = "<!-- bench:table:end -->";
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
