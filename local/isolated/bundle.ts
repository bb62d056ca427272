/**
 * Lambda bundles of every function, built as SST builds a Node function at deploy time: plain
 * esbuild with the options SST derives from what `stacks/` gives it (`sst-esbuild.ts`), and nothing
 * else. `npm run build` writes them under `.build/`; isolated mode (`local/isolated/`) runs these
 * same files, and the size test compares each with a bare Hono + DynamoDB handler built alike.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";
import { routes, workers, type RouteSpec, type WorkerSpec } from "../../functions/routes.js";
import { writeOpenApiModule } from "../../functions/platform/http/openapi-document.js";
import { keepBuild, recipeKey, reuseBuild } from "./build-cache.js";
import { functionBuildOptions } from "./sst-esbuild.js";

export const ROOT = resolve(import.meta.dirname, "../..");
export const BUILD_DIR = join(ROOT, ".build");

/**
 * How the bundles are laid out, which SST decides its own way (`bundle.mjs` in a folder per
 * function): `<name>/index.mjs` under one folder, and the metafile the sizes are read from.
 */
const LAYOUT: esbuild.BuildOptions = { absWorkingDir: ROOT, outExtension: { ".js": ".mjs" }, metafile: true, logLevel: "error" };

export type FunctionKind = "route" | WorkerSpec["kind"];

/** One Lambda: a module of the route table (shared by the routes that name it) or a worker. */
export interface FunctionSpec {
  /** Folder name under `.build/`: the module path with dots, e.g. `identity.http.version`. */
  name: string;
  module: string;
  kind: FunctionKind;
  routes: RouteSpec[];
  worker?: WorkerSpec;
}

export const functionName = (module: string) => module.replace(/\//g, ".");

/** Every function `stacks/` deploys: one per route-table module and one per worker. */
export function functionSpecs(): FunctionSpec[] {
  const byModule = new Map<string, FunctionSpec>();
  for (const route of routes) {
    const fn = byModule.get(route.module) ?? { name: functionName(route.module), module: route.module, kind: "route" as const, routes: [] };
    fn.routes.push(route);
    byModule.set(route.module, fn);
  }
  for (const worker of workers) {
    if (byModule.has(worker.module)) throw new Error(`functions/${worker.module}.ts is both a route and a worker`);
    byModule.set(worker.module, { name: functionName(worker.module), module: worker.module, kind: worker.kind, routes: [], worker });
  }
  return [...byModule.values()];
}

/** The baselines, bundled with the same options: a bare Hono + DynamoDB handler, and isomorphic-git alone. */
export const BARE = "bare-hono-dynamodb";
export const GIT_ALONE = "isomorphic-git-alone";
/** compressjs's Bzip2 module, the one bzip2 compressor: only the repository archive carries it. */
export const BZIP2_ALONE = "bzip2-alone";
/** The module the bzip2 allowance is measured on and recognised by. */
const BZIP2_MODULE = "@ledgerhq/compressjs/src/lib/Bzip2.js";
/** The Markdown renderer's libraries, parser and sanitizer: only the functions that render Markdown carry them. */
export const MARKDOWN_ALONE = "markdown-alone";
const baselineSources: Record<string, string> = {
  [BARE]: [
    `import { Hono } from "hono";`,
    `import { handle } from "hono/aws-lambda";`,
    `import { DynamoDBClient, GetItemCommand } from "@aws-sdk/client-dynamodb";`,
    `const db = new DynamoDBClient({});`,
    `const app = new Hono();`,
    `app.get("*", async (c) => c.json((await db.send(new GetItemCommand({ TableName: process.env.TABLE, Key: { pk: { S: c.req.path }, sk: { S: "bare" } } }))).Item ?? {}));`,
    `export const handler = handle(app);`,
  ].join("\n"),
  [GIT_ALONE]: `export * from "isomorphic-git";`,
  [BZIP2_ALONE]: `export { default } from "${BZIP2_MODULE}";`,
  [MARKDOWN_ALONE]: `export { Marked } from "marked";\nexport { default as xss } from "xss";`,
};

export interface BuiltFunction {
  name: string;
  module?: string;
  kind?: FunctionKind;
  /** The `.mjs` Lambda loads (source map not counted: it is not loaded). */
  file: string;
  bytes: number;
  /** Whether isomorphic-git is in the bundle (the function reads or writes repositories). */
  git: boolean;
  /** Whether the bzip2 compressor is in the bundle (the function writes bzip2 archives). */
  bzip2: boolean;
  /** Whether the Markdown parser (and so its sanitizer) is in the bundle (the function renders Markdown). */
  markdown: boolean;
  /** The source files and package files bundled, as esbuild's metafile names them (relative to the root). */
  inputs: string[];
}

export interface BuildResult {
  functions: BuiltFunction[];
  bare: BuiltFunction;
  gitAlone: BuiltFunction;
  bzip2Alone: BuiltFunction;
  markdownAlone: BuiltFunction;
}

/** What `buildFunctions` writes beside the bundles: its functions, baselines and sizes (`readBuild`). */
const BUILD_MANIFEST = "build.json";

/** Bundles every function (or those named) and the baselines into `outDir/<name>/index.mjs`. */
export async function buildFunctions(opts: { outDir?: string; only?: string[] } = {}): Promise<BuildResult> {
  const outDir = opts.outDir ?? BUILD_DIR;
  const specs = functionSpecs().filter((f) => !opts.only || opts.only.includes(f.name));
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  // The OpenAPI route's bundle holds the document as a generated module: written before bundling.
  await writeOpenApiModule();
  const baselineDir = join(ROOT, "node_modules/.cache/forgeline");
  mkdirSync(baselineDir, { recursive: true });
  const sources = mkdtempSync(join(baselineDir, "baseline-src-"));
  try {
    const entries = [
      ...specs.map((f) => ({ in: join(ROOT, "functions", `${f.module}.ts`), out: `${f.name}/index`, options: functionBuildOptions(f.module) })),
      ...Object.entries(baselineSources).map(([name, source]) => {
        const file = join(sources, `${name}.ts`);
        writeFileSync(file, source + "\n");
        return { in: file, out: `${name}/index`, options: functionBuildOptions(undefined) };
      }),
    ];
    // One esbuild call per set of options (SST runs one per function; the output is the same).
    const groups = new Map<string, { options: esbuild.BuildOptions; entryPoints: { in: string; out: string }[] }>();
    for (const entry of entries) {
      const id = JSON.stringify(entry.options);
      const group = groups.get(id) ?? { options: entry.options, entryPoints: [] };
      group.entryPoints.push({ in: entry.in, out: entry.out });
      groups.set(id, group);
    }
    // A whole build with the same recipe and unchanged inputs is linked from the last one (build-cache.ts).
    const recipe = [...groups.values()].map((g) => ({ options: g.options, entries: g.entryPoints.map((e) => e.out) }));
    const key = opts.only ? undefined : recipeKey([esbuild.version, readFileSync(fileURLToPath(import.meta.url), "utf8"), JSON.stringify(recipe)]);
    const reused = key && reuseBuild<BuildResult>({ key, root: ROOT, outDir, manifest: BUILD_MANIFEST });
    if (reused) return reused;
    const results = await Promise.all([...groups.values()].map((g) => esbuild.build({ ...g.options, ...LAYOUT, entryPoints: g.entryPoints, outdir: outDir })));
    const build = collect(results.flatMap((r) => Object.entries(r.metafile!.outputs)), specs);
    writeFileSync(join(outDir, BUILD_MANIFEST), JSON.stringify(build));
    if (key) keepBuild({ key, root: ROOT, outDir, builds: [...build.functions, build.bare, build.gitAlone, build.bzip2Alone, build.markdownAlone] });
    return build;
  } finally {
    rmSync(sources, { recursive: true, force: true });
  }
}

/** The build's manifest, from esbuild's metafile outputs. */
function collect(outputs: [string, esbuild.Metafile["outputs"][string]][], specs: FunctionSpec[]): BuildResult {
  const built = new Map<string, BuiltFunction>();
  for (const [file, output] of outputs) {
    if (!file.endsWith(".mjs")) continue;
    const name = file.split("/").at(-2)!;
    const inputs = Object.keys(output.inputs);
    const git = inputs.some((input) => input.includes("node_modules/isomorphic-git/"));
    const bzip2 = inputs.some((input) => input.includes("node_modules/@ledgerhq/compressjs/"));
    const markdown = inputs.some((input) => input.includes("node_modules/marked/"));
    built.set(name, { name, file: resolve(ROOT, file), bytes: output.bytes, git, bzip2, markdown, inputs });
  }
  const take = (name: string) => {
    const b = built.get(name);
    if (!b) throw new Error(`esbuild produced no bundle for ${name}`);
    return b;
  };
  return {
    functions: specs.map((f) => ({ ...take(f.name), module: f.module, kind: f.kind })),
    bare: take(BARE),
    gitAlone: take(GIT_ALONE),
    bzip2Alone: take(BZIP2_ALONE),
    markdownAlone: take(MARKDOWN_ALONE),
  };
}

/**
 * The result of the build that filled `outDir`, read back: a test run builds once (the isolated
 * project's setup) and its size checks read the same bundles the isolated functions run.
 */
export function readBuild(outDir: string): BuildResult {
  return JSON.parse(readFileSync(join(outDir, BUILD_MANIFEST), "utf8")) as BuildResult;
}

/** Bundles one more entry (a test's probe function) as SST would, into `outDir/<name>/index.mjs`. */
export async function bundleEntry(entry: string, outDir: string, name: string): Promise<string> {
  await esbuild.build({ ...functionBuildOptions(undefined), ...LAYOUT, entryPoints: [{ in: entry, out: `${name}/index` }], outdir: outDir });
  return join(outDir, name, "index.mjs");
}

/**
 * The size rule: a function may weigh `ratio` × the bare handler, plus isomorphic-git if it uses it,
 * plus the bzip2 compressor if it writes bzip2, plus the Markdown parser and sanitizer if it renders Markdown.
 */
export function sizeBudget(fn: BuiltFunction, build: BuildResult, ratio: number): number {
  const allowances = (fn.git ? build.gitAlone.bytes : 0) + (fn.bzip2 ? build.bzip2Alone.bytes : 0) + (fn.markdown ? build.markdownAlone.bytes : 0);
  return Math.floor(ratio * build.bare.bytes + allowances);
}

export const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;
