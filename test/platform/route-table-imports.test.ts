import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * The route table (`functions/routes.ts`) assembles each context's slice; a slice that imported the
 * table back (for its entry types, say) would make a circle across floors. The shapes live in
 * `functions/route-spec.ts`, which imports nothing.
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const table = join(root, "functions/routes.ts");

const importsOf = (file: string): string[] => {
  const source = readFileSync(file, "utf8");
  const specifiers = [...source.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+["']([^"']+)["']/gm)].map((m) => m[1]!);
  return specifiers
    .filter((s) => s.startsWith("."))
    .map((s) => resolve(dirname(file), s.replace(/\.js$/, ".ts")))
    .filter((f) => existsSync(f));
};

/** Every module the table reaches through static imports, with the chain that reached it. */
function reachable(from: string): Map<string, string[]> {
  const seen = new Map<string, string[]>([[from, [from]]]);
  const queue = [from];
  while (queue.length) {
    const file = queue.shift()!;
    for (const next of importsOf(file)) {
      if (seen.has(next)) continue;
      seen.set(next, [...seen.get(file)!, next]);
      queue.push(next);
    }
  }
  return seen;
}

describe("the route table's imports", () => {
  it("no module the table imports imports the table back", () => {
    const circles = [...reachable(table)]
      .filter(([file]) => file !== table && importsOf(file).includes(table))
      .map(([, chain]) => chain.map((f) => f.slice(root.length + 1)).join(" → "));
    expect(circles).toEqual([]);
  });

  it("route-spec.ts, the entries' shapes, imports nothing", () => {
    expect(importsOf(join(root, "functions/route-spec.ts"))).toEqual([]);
  });
});
