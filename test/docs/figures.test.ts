/**
 * Figures the code knows, as the documentation states them: the number of functions, every setting
 * and its default, the benchmark table `npm run bench` wrote (and the README's short form of it), the python-gitlab expectations, the
 * storage-move CLI's usage. Each is read from the code (or its output) and compared with the text,
 * so a change to either that leaves the other behind fails here.
 */
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { functionSpecs } from "../../local/isolated/bundle.js";
import { USAGE } from "../../functions/moves/cli/commands.js";
import { headlineTable } from "../../bench/results.js";
import { FILES, NOT_YET_PASSING } from "../clients/python-gitlab-functional/expectations.js";
import { codeBlocks, readDoc, root, section } from "./support.js";

describe("the README", () => {
  it("stays short: at most 200 lines", () => {
    expect(readDoc("README.md").split("\n").length).toBeLessThanOrEqual(200);
  });

  it("quotes its troubleshooting rows from the full table in docs/operators.md", () => {
    const rows = (text: string) => text.split("\n").filter((l) => l.startsWith("| `"));
    const quoted = rows(section(readDoc("README.md"), "Troubleshooting"));
    expect(quoted).toHaveLength(3);
    expect(rows(section(readDoc("docs/operators.md"), "Troubleshooting"))).toEqual(expect.arrayContaining(quoted));
  });
});

describe("the function count", () => {
  it("is the number of functions npm run build bundles", () => {
    const stated = /each module of the route table and each worker \((\d+) functions\)/.exec(readDoc("docs/architecture.md"))?.[1];
    expect(Number(stated)).toBe(functionSpecs().length);
  });
});

describe("the storage-move CLI", () => {
  it("prints the usage docs/operators.md shows", () => {
    const shown = codeBlocks(section(readDoc("docs/operators.md"), "Watching executions")).find((b) => b.language === "text")!;
    expect(shown.code.trimEnd()).toBe(USAGE);
  });
});

/** Every `.ts` file under `dir` (generated code and tests aside). */
function sources(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const rel = `${dir}/${name}`;
    if (name === "node_modules" || name === "generated") return [];
    if (statSync(join(root, rel)).isDirectory()) return sources(rel);
    return /\.(ts|mjs)$/.test(name) && !name.endsWith(".test.ts") ? [rel] : [];
  });
}

const CODE = [...["functions", "local", "stacks", "scripts", "bench"].flatMap(sources), "sst.config.ts", "vitest.config.ts", ".ci/run"].map((f) => readFileSync(join(root, f), "utf8"));
const SETTING = /\b(?:FORGELINE_[A-Z0-9_]*[A-Z0-9]|LOG_LEVEL)\b/g;
const inCode = new Set(CODE.flatMap((c) => c.match(SETTING) ?? []));

/** The literal a line of code falls back to when the setting is absent: `?? 3000`, `|| 10`, `, 20 * MiB)`, `?? "127.0.0.1"`. */
function codeDefault(name: string): number | string | undefined {
  const literal = String.raw`(\d[\d_]*(?:\s*\*\s*(?:\d[\d_]*|MiB|KiB))*|"[^"]*")`;
  for (const c of CODE) {
    for (const line of c.split("\n")) {
      if (!line.includes(name) || /^\s*(\*|\/\/)/.test(line)) continue;
      const m = new RegExp(String.raw`\b${name}\b[^\n;]*?(?:\?\?|\|\||,)\s*${literal}`).exec(line);
      if (!m) continue;
      const v = m[1]!;
      if (v.startsWith('"')) return v.slice(1, -1);
      return v.split("*").reduce((n, f) => n * ({ MiB: 1024 ** 2, KiB: 1024 }[f.trim()] ?? Number(f.trim().replaceAll("_", ""))), 1);
    }
  }
  return undefined;
}

/** A default as the documentation writes it: `` `value` `` or a number with an optional unit, in the setting's own unit. */
function docDefaults(name: string, cell: string): (number | string)[] {
  const code = /^`([^`]*)`/.exec(cell.trim());
  if (code && !/^\d[\d_]*$/.test(code[1]!)) return [code[1]!];
  const unit: Record<string, number> = name.endsWith("_MS")
    ? { "": 1, ms: 1, s: 1000, min: 60_000 }
    : name.endsWith("_SECONDS")
      ? { "": 1, s: 1, min: 60 }
      : { "": 1, KiB: 1024, MiB: 1024 ** 2 };
  return [...cell.replaceAll("`", "").matchAll(/(?<![\w.])(\d[\d,]*)(?:\s*(KiB|MiB|ms|s|min)\b)?/g)].map((m) => Number(m[1]!.replaceAll(",", "")) * (unit[m[2] ?? ""] ?? NaN));
}

/** The rows of a Markdown table whose first cell names settings: each setting with its default cell. */
function settingRows(text: string): { names: string[]; defaults: string }[] {
  return text
    .split("\n")
    .filter((l) => /^\| `(FORGELINE_|LOG_LEVEL|…_)/.test(l))
    .map((l) => {
      const [first, defaults] = l.split(" | ") as [string, string];
      const names = [...first.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
      const prefix = /^(FORGELINE_[A-Z]+_)/.exec(names[0]!)?.[1] ?? "";
      return { names: names.map((n) => (n.startsWith("…_") ? prefix + n.slice(2) : n)), defaults };
    });
}

describe("the settings", () => {
  const configuration = readDoc("docs/configuration.md");
  const named = new Set(configuration.match(SETTING) ?? []);

  it("docs/configuration.md names every setting the code reads", () => {
    expect([...inCode].filter((s) => !named.has(s)).sort()).toEqual([]);
  });

  it("docs/configuration.md names no setting the code does not read", () => {
    expect([...named].filter((s) => !inCode.has(s)).sort()).toEqual([]);
  });

  it("every default configuration.md and the ingestion limits write as a value is the code's", () => {
    const checked: string[] = [];
    const wrong: string[] = [];
    for (const file of ["docs/configuration.md", "docs/error-tracking.md"]) {
      for (const { names, defaults } of settingRows(readDoc(file))) {
        const written = docDefaults(names[0]!, defaults);
        names.forEach((name, i) => {
          const code = codeDefault(name);
          const doc = written[i];
          if (code === undefined || doc === undefined) return;
          checked.push(name);
          const same = typeof code === "string" ? String(doc).replace(/^\.\//, "") === code : doc === code;
          if (!same) wrong.push(`${file}: ${name} is documented as ${doc}, the code's default is ${code}`);
        });
      }
    }
    expect(wrong).toEqual([]);
    // The comparison did run: the ingestion limits, the move settings, the listener's address…
    expect(checked).toEqual(expect.arrayContaining(["FORGELINE_PORT", "FORGELINE_HOST", "FORGELINE_DATA_DIR", "FORGELINE_INGEST_MAX_REQUEST_BYTES", "FORGELINE_INGEST_RATE_BURST", "FORGELINE_MOVE_BATCH_SIZE", "FORGELINE_BACKUP_WAIT_MS", "LOG_LEVEL"]));
  });
});

describe("the benchmark table", () => {
  it("in docs/benchmarks.md is the one npm run bench wrote to bench/RESULTS.md", () => {
    const doc = readDoc("docs/benchmarks.md");
    const between = doc.slice(doc.indexOf("<!-- bench:table:start -->\n") + "<!-- bench:table:start -->\n".length, doc.indexOf("<!-- bench:table:end -->"));
    const results = readFileSync(join(root, "bench/RESULTS.md"), "utf8");
    const table = results.slice(0, results.indexOf("\n\n") + 1);
    expect(between.trim().split("\n").length).toBeGreaterThan(10);
    expect(between).toBe(table);
  });

  it("in the README is the short form of the same table", () => {
    const readme = readDoc("README.md");
    const between = readme.slice(readme.indexOf("<!-- bench:headline:start -->\n") + "<!-- bench:headline:start -->\n".length, readme.indexOf("<!-- bench:headline:end -->"));
    const results = readFileSync(join(root, "bench/RESULTS.md"), "utf8");
    expect(between).toContain("| Error storm: ");
    expect(between).toBe(headlineTable(results));
  });
});

describe("python-gitlab's functional tests", () => {
  const doc = section(readDoc("docs/gitlab-api.md"), "Client compatibility");
  const byFile = new Map(FILES.map((f) => [f, Object.keys(NOT_YET_PASSING).filter((id) => id.startsWith(`${f}::`))]));

  it("run the files expectations.ts lists, with the counts of tests passing", () => {
    const counts = [...doc.matchAll(/`(api\/test_\w+\.py)`\s+(\d+) of (\d+)/g)].map((m) => ({ file: m[1]!, passing: Number(m[2]), total: Number(m[3]) }));
    expect(counts.map((c) => c.file)).toEqual(FILES);
    for (const c of counts) expect(c.total - c.passing, c.file).toBe(byFile.get(c.file)!.length);
    const [, passing, total] = /Files run \((\d+) of (\d+) pass\)/.exec(doc)!;
    expect(Number(passing)).toBe(counts.reduce((n, c) => n + c.passing, 0));
    expect(Number(total)).toBe(counts.reduce((n, c) => n + c.total, 0));
  });

  it("the table names exactly the tests expectations.ts expects not to pass", () => {
    const rows = doc.split("\n").filter((l) => /^\| test_\w+: /.test(l));
    const claimed: string[] = [];
    for (const row of rows) {
      const file = `api/${/^\| (test_\w+):/.exec(row)![1]}.py`;
      const ids = byFile.get(file) ?? [];
      const first = row.split(" | ")[0]!;
      for (const m of first.matchAll(/`([^`]+)`(?: [a-z]+)?(?: \((\d+)\))?/g)) {
        const pattern = new RegExp(`^${m[1]!.replace(/[.+?^${}()|\\]/g, "\\$&").replace(/\[…\]/g, "\\[.*\\]").replace(/\*/g, ".*")}$`);
        const matched = ids.filter((id) => pattern.test(id.split("::")[1]!));
        expect(matched.length, `${file}: ${m[0]}`).toBe(Number(m[2] ?? 1));
        claimed.push(...matched);
      }
    }
    expect(claimed.sort()).toEqual(Object.keys(NOT_YET_PASSING).sort());
  });
});
