/**
 * The last build of every function, kept by what went into it, so a second `buildFunctions` with
 * the same sources, packages and options links the same files instead of bundling again (CI runs
 * the suite on two Node versions; each run's isolated project builds, ~40 s on 2 cores).
 *
 * A build is reused only when all of these are unchanged: the recipe (esbuild's version, the
 * bundling code and options, the function list, the OpenAPI document injected into its route) and
 * the content of every file esbuild read for any bundle (its metafile inputs: sources, `rest/`,
 * package files). A new import can only appear by editing a file already read, so the inputs'
 * contents cover the files a changed build would read too. The files are hard links to one kept
 * copy (a copy where linking fails); nothing writes to a finished bundle.
 */
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";

const CACHE_ROOT = resolve(import.meta.dirname, "../../node_modules/.cache/forgeline/bundles");
const INPUTS_FILE = "inputs.json";

type Built = { file: string; inputs: string[] };

export function recipeKey(parts: readonly string[]): string {
  const hash = createHash("sha256");
  for (const part of parts) hash.update(part).update("\0");
  return hash.digest("hex").slice(0, 32);
}

/** Digest of the named files' contents; undefined if one is gone. Paths are relative to `root`. */
function inputsDigest(root: string, paths: readonly string[]): string | undefined {
  const hash = createHash("sha256");
  for (const path of paths) {
    const file = resolve(root, path);
    if (!existsSync(file)) return undefined;
    hash.update(path).update("\0").update(readFileSync(file)).update("\0");
  }
  return hash.digest("hex");
}

/** Every input that is a file (esbuild also lists plugin namespaces and deleted scratch sources). */
function fileInputs(root: string, builds: readonly Built[]): string[] {
  const all = new Set(builds.flatMap((b) => b.inputs));
  return [...all].filter((p) => !p.includes(":") && existsSync(resolve(root, p))).sort();
}

function linkTree(from: string, to: string, skip: string) {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    if (entry.name === skip) continue;
    const [src, dst] = [join(from, entry.name), join(to, entry.name)];
    if (entry.isDirectory()) linkTree(src, dst, skip);
    else {
      try {
        linkSync(src, dst);
      } catch {
        copyFileSync(src, dst);
      }
    }
  }
}

/** The kept build for `key` linked into `outDir` (its manifest pointing there), or undefined. */
export function reuseBuild<T extends { functions: Built[] }>(opts: { key: string; root: string; outDir: string; manifest: string; cacheRoot?: string }): T | undefined {
  const kept = join(opts.cacheRoot ?? CACHE_ROOT, opts.key);
  try {
    const { paths, digest } = JSON.parse(readFileSync(join(kept, INPUTS_FILE), "utf8")) as { paths: string[]; digest: string };
    if (inputsDigest(opts.root, paths) !== digest) return undefined;
    const build = JSON.parse(readFileSync(join(kept, opts.manifest), "utf8")) as T & Record<string, unknown>;
    rmSync(opts.outDir, { recursive: true, force: true });
    linkTree(kept, opts.outDir, INPUTS_FILE);
    const relocate = (b: Built) => ({ ...b, file: join(opts.outDir, basename(dirname(b.file)), basename(b.file)) });
    const moved = Object.fromEntries(Object.entries(build).map(([k, v]) => [k, Array.isArray(v) ? v.map(relocate) : v && typeof v === "object" && "file" in v ? relocate(v as Built) : v])) as T;
    writeFileSync(join(opts.outDir, opts.manifest), JSON.stringify(moved));
    return moved;
  } catch {
    return undefined;
  }
}

/**
 * Keeps the build in `outDir` as the one for `key` (replacing any other kept build). Keeping is an
 * optimisation: if it fails (another build keeping at the same moment, a full disk), nothing is
 * kept and the build that was just made stands.
 */
export function keepBuild(opts: { key: string; root: string; outDir: string; builds: Built[]; cacheRoot?: string }) {
  const cacheRoot = opts.cacheRoot ?? CACHE_ROOT;
  try {
    const paths = fileInputs(opts.root, opts.builds);
    const digest = inputsDigest(opts.root, paths);
    if (!digest) return;
    rmSync(cacheRoot, { recursive: true, force: true });
    const kept = join(cacheRoot, opts.key);
    linkTree(opts.outDir, kept, INPUTS_FILE);
    // Written last: a kept build without its inputs file is never reused.
    writeFileSync(join(kept, INPUTS_FILE), JSON.stringify({ paths, digest }));
  } catch {
    rmSync(cacheRoot, { recursive: true, force: true });
  }
}
