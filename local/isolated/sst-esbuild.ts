/**
 * The esbuild options SST 4.17 bundles a Node function with when it deploys (its Node builder,
 * `pkg/runtime/node/build.go`, outside `sst dev`), derived from the two things `stacks/` decides:
 * the Lambda runtime and the function's `nodejs` options (`LAMBDA_RUNTIME` and `nodejsOf` in
 * `stacks/plan.ts`). `npm run build`, isolated mode and the tests bundle with these and nothing
 * else: no plugin, no option SST does not pass, so the bundle that is tested is the one deployed.
 */
import type { BuildOptions } from "esbuild";
import { LAMBDA_RUNTIME, nodejsOf, type NodejsBundling } from "../../stacks/plan.js";

/** SST's target per runtime: an ECMAScript edition, not a Node version. */
const TARGET_OF_RUNTIME: Record<string, string> = {
  "nodejs24.x": "es2024",
  "nodejs22.x": "es2023",
  "nodejs20.x": "es2023",
};

/** Packages SST never bundles: it installs them beside the bundle when a function imports them. */
const FORCE_EXTERNAL = ["sharp", "pg-native"];

/**
 * SST's banner, so CommonJS dependencies find `require`, `__filename` and `__dirname` in an ES
 * module; SST appends `nodejs.banner` (none here) after a newline.
 */
const BANNER = [
  `import { createRequire as topLevelCreateRequire } from 'module';`,
  `const require = topLevelCreateRequire(import.meta.url);`,
  `import { fileURLToPath as topLevelFileUrlToPath, URL as topLevelURL } from "url"`,
  `const __filename = topLevelFileUrlToPath(import.meta.url)`,
  `const __dirname = topLevelFileUrlToPath(new topLevelURL(".", import.meta.url))`,
  "",
].join("\n");

export function sstEsbuildOptions(runtime: string, nodejs: NodejsBundling): BuildOptions {
  const target = TARGET_OF_RUNTIME[runtime];
  if (!target) throw new Error(`No esbuild target known for the Lambda runtime ${runtime}`);
  return {
    bundle: true,
    platform: "node",
    format: "esm",
    target,
    keepNames: true,
    mainFields: ["module", "main"],
    sourcemap: "linked",
    // `nodejs.install` packages ship in the function's node_modules instead of the bundle.
    external: [...FORCE_EXTERNAL, ...(nodejs.install ?? [])],
    banner: { js: BANNER },
    ...(nodejs.minify ? { minifyWhitespace: true, minifySyntax: true, minifyIdentifiers: true } : {}),
  };
}

/** The options the function of `module` is bundled with (`undefined`: a bundle that is not a function of the table). */
export const functionBuildOptions = (module: string | undefined): BuildOptions => sstEsbuildOptions(LAMBDA_RUNTIME, nodejsOf(module));
