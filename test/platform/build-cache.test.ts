/**
 * The kept build (local/isolated/build-cache.ts): reused only while every input file reads the
 * same, linked into the new folder with its manifest pointing there; any changed or missing input
 * means a fresh build.
 */
import { describe, it, expect } from "vitest";
import { mkdtempSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { keepBuild, recipeKey, reuseBuild } from "../../local/isolated/build-cache.js";

type Manifest = { functions: Array<{ name: string; file: string; inputs: string[] }>; bare: { file: string; inputs: string[] } };

function fixture() {
  const root = mkdtempSync(join(tmpdir(), "forgeline-build-cache-"));
  const cacheRoot = join(root, "cache");
  mkdirSync(join(root, "src"));
  writeFileSync(join(root, "src/a.ts"), "export const a = 1;\n");
  writeFileSync(join(root, "src/b.ts"), "export const b = 2;\n");
  const outDir = join(root, "out-1");
  const manifest: Manifest = {
    functions: [{ name: "fn", file: join(outDir, "fn/index.mjs"), inputs: ["src/a.ts", "src/b.ts", "plugin-namespace:virtual"] }],
    bare: { file: join(outDir, "bare/index.mjs"), inputs: ["src/a.ts"] },
  };
  for (const dir of ["fn", "bare"]) {
    mkdirSync(join(outDir, dir), { recursive: true });
    writeFileSync(join(outDir, dir, "index.mjs"), `// ${dir} bundle\n`);
  }
  writeFileSync(join(outDir, "build.json"), JSON.stringify(manifest));
  const key = recipeKey(["esbuild 0.0.0", "options"]);
  keepBuild({ key, root, outDir, builds: [...manifest.functions, manifest.bare], cacheRoot });
  const reuse = (into: string) => reuseBuild<Manifest>({ key, root, outDir: join(root, into), manifest: "build.json", cacheRoot });
  return { root, reuse, key };
}

describe("the kept build", () => {
  it("is linked into a new folder, manifest relocated, while every input reads the same", () => {
    const { root, reuse } = fixture();
    try {
      const build = reuse("out-2")!;
      expect(build.functions[0]!.file).toBe(join(root, "out-2/fn/index.mjs"));
      expect(build.bare.file).toBe(join(root, "out-2/bare/index.mjs"));
      expect(readFileSync(build.functions[0]!.file, "utf8")).toBe("// fn bundle\n");
      expect(statSync(build.functions[0]!.file).nlink).toBeGreaterThan(1); // a link, not a copy
      expect(JSON.parse(readFileSync(join(root, "out-2/build.json"), "utf8"))).toEqual(build);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("keeps nothing, and throws nothing, when keeping fails", () => {
    const { root, key } = fixture();
    try {
      const cacheRoot = join(root, "cache");
      const gone = join(root, "no-such-build");
      expect(() => keepBuild({ key, root, outDir: gone, builds: [{ file: join(gone, "fn/index.mjs"), inputs: ["src/a.ts"] }], cacheRoot })).not.toThrow();
      expect(reuseBuild({ key, root, outDir: join(root, "out-2"), manifest: "build.json", cacheRoot })).toBeUndefined();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("is not reused once an input changes or disappears, nor under another recipe", () => {
    const { root, reuse, key } = fixture();
    try {
      writeFileSync(join(root, "src/b.ts"), "export const b = 3;\n");
      expect(reuse("out-2")).toBeUndefined();
      writeFileSync(join(root, "src/b.ts"), "export const b = 2;\n");
      expect(reuse("out-3")).toBeDefined();
      rmSync(join(root, "src/a.ts"));
      expect(reuse("out-4")).toBeUndefined();
      expect(reuseBuild({ key: recipeKey(["esbuild 0.0.1", "options"]), root, outDir: join(root, "out-5"), manifest: "build.json", cacheRoot: join(root, "cache") })).toBeUndefined();
      expect(recipeKey(["esbuild 0.0.1", "options"])).not.toBe(key);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
