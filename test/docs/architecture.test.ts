/**
 * docs/architecture.md's table of which context imports which is the code's: every relative import
 * under `functions/` that crosses from one context (or the platform, or the route table) into
 * another is listed there, and every listed one exists.
 */
import { readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { readDoc, root, section } from "./support.js";

/** A file's floor: its context folder, `routes` for the route table, `route-spec` for its types, `local` outside `functions/`. */
function floorOf(file: string): string {
  const rel = relative("functions", file);
  if (rel.startsWith("..")) return rel.split("/")[1]!;
  const [first] = rel.split("/");
  return first!.replace(/\.(ts|js)$/, "");
}

function files(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const rel = `${dir}/${name}`;
    if (name === "generated" || name === "node_modules") return [];
    if (statSync(join(root, rel)).isDirectory()) return files(rel);
    return name.endsWith(".ts") && !name.endsWith(".test.ts") ? [rel] : [];
  });
}

function edges(): Set<string> {
  const out = new Set<string>();
  for (const file of files("functions")) {
    const from = floorOf(file);
    const text = readFileSync(join(root, file), "utf8");
    for (const m of text.matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g)) {
      const to = floorOf(normalize(join(dirname(file), m[1]!)));
      if (to !== from && to !== "route-spec") out.add(`${from} → ${to}`);
    }
  }
  return out;
}

describe("the layering docs/architecture.md describes", () => {
  it("lists exactly the imports across contexts that the code has", () => {
    const table = section(readDoc("docs/architecture.md"), "Floors and contexts")
      .split("\n")
      .filter((l) => /^\| `\w+` \|/.test(l));
    const documented = new Set<string>();
    for (const row of table) {
      const imports = row.split(" | ")[1]!;
      const from = /`(\w+)`/.exec(row)![1]!;
      // The names a cell lists before its parenthesised explanations.
      for (const m of imports.replace(/\([^)]*\)/g, "").matchAll(/`(\w+)`/g)) if (m[1] !== from) documented.add(`${from} → ${m[1]}`);
    }
    // The route table imports every context's slice; that is what it is.
    const actual = [...edges()].filter((e) => !e.startsWith("routes → "));
    expect(actual.filter((e) => !documented.has(e)).sort(), "imports the table does not list").toEqual([]);
    expect([...documented].filter((e) => !actual.includes(e)).sort(), "listed imports the code does not have").toEqual([]);
  });

  it("no context's slice imports the route table itself, only its entry types", () => {
    const slices = [...edges()].filter((e) => e.endsWith("→ routes"));
    expect(slices).toEqual(["platform → routes"]);
  });
});
