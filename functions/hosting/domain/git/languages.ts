/**
 * GitLab's "List programming languages used" (`GET /projects/:id/languages`): each language's share
 * of the bytes of the default branch's files. GitLab detects languages with Linguist; here a file's
 * language comes from its extension or name, by Linguist's own table for the common languages, and
 * only programming and markup languages count, as in GitLab (no data, prose or config formats:
 * Markdown, JSON and YAML are not listed). Files Linguist leaves out are left out: vendored code,
 * documentation and dot files.
 */
import { gitFs as fs } from "./git-fs.js";
import { git } from "./engine.js";
import { requireRepository } from "./lifecycle.js";
import { defaultBranchOf } from "./read.js";
import { resolveExactRef, type ObjectCache } from "./refs.js";

const BY_EXTENSION: Record<string, string> = {
  rb: "Ruby", rake: "Ruby", gemspec: "Ruby",
  js: "JavaScript", mjs: "JavaScript", cjs: "JavaScript", jsx: "JavaScript",
  ts: "TypeScript", mts: "TypeScript", cts: "TypeScript", tsx: "TSX",
  py: "Python", go: "Go", java: "Java", kt: "Kotlin", kts: "Kotlin", scala: "Scala", groovy: "Groovy",
  c: "C", h: "C", cc: "C++", cpp: "C++", cxx: "C++", hpp: "C++", hh: "C++", hxx: "C++", cs: "C#", mm: "Objective-C++",
  swift: "Swift", rs: "Rust", php: "PHP", pl: "Perl", pm: "Perl",
  sh: "Shell", bash: "Shell", zsh: "Shell", ps1: "PowerShell", psm1: "PowerShell", bat: "Batchfile", cmd: "Batchfile",
  lua: "Lua", r: "R", dart: "Dart", ex: "Elixir", exs: "Elixir", erl: "Erlang", hrl: "Erlang", hs: "Haskell",
  clj: "Clojure", cljs: "Clojure", cljc: "Clojure", elm: "Elm", ml: "OCaml", mli: "OCaml", fs: "F#", fsx: "F#",
  jl: "Julia", zig: "Zig", nim: "Nim", coffee: "CoffeeScript", vim: "Vim Script", el: "Emacs Lisp", tf: "HCL", cmake: "CMake", mk: "Makefile",
  vue: "Vue", svelte: "Svelte", html: "HTML", htm: "HTML", erb: "HTML+ERB", haml: "Haml",
  css: "CSS", scss: "SCSS", sass: "Sass", less: "Less", tex: "TeX", ipynb: "Jupyter Notebook",
};

const BY_NAME: Record<string, string> = {
  Gemfile: "Ruby", Rakefile: "Ruby", Makefile: "Makefile", GNUmakefile: "Makefile", makefile: "Makefile", Dockerfile: "Dockerfile", "CMakeLists.txt": "CMake",
};

/** Linguist's vendored and documentation paths, and dot files (any segment starting with a dot). */
const LEFT_OUT = [
  /(^|\/)(node_modules|vendor|bower_components|third[-_]party|dist)\//,
  /\.min\.(js|css)$/,
  /(^|\/)\./,
  /^[Dd]ocs?\//,
  /(^|\/)([Dd]ocumentation|javadoc|man)\//,
  /^([Ee]xamples|[Ss]amples?)\//,
  /(^|\/)(CHANGE(S|LOG)?|CONTRIBUTING|COPYING|INSTALL|LICEN[CS]E|[Ll]icen[cs]e|README|[Rr]eadme)(\.|$)/,
];

/** The language Linguist gives a file at `path`, or undefined for one that does not count. */
export function languageOf(path: string): string | undefined {
  if (LEFT_OUT.some((pattern) => pattern.test(path))) return undefined;
  const name = path.slice(path.lastIndexOf("/") + 1);
  if (BY_NAME[name]) return BY_NAME[name];
  const dot = name.lastIndexOf(".");
  return dot > 0 ? BY_EXTENSION[name.slice(dot + 1).toLowerCase()] : undefined;
}

/** Shares are per tree, and a tree never changes: the last few are kept for repeated asks. */
const cached = new Map<string, Record<string, number>>();
const CACHED_TREES = 64;

/** `{language: percent}`, two decimals, largest first; `{}` for an empty repository. */
export async function languageShares(storage: string, rel: string): Promise<Record<string, number>> {
  const gitdir = await requireRepository(storage, rel);
  const cache: ObjectCache = {};
  const branch = await defaultBranchOf(gitdir);
  const head = branch && (await resolveExactRef(gitdir, `refs/heads/${branch}`));
  if (!head) return {};
  const tree = (await git.readCommit({ fs, gitdir, oid: head, cache })).commit.tree;
  const hit = cached.get(tree);
  if (hit) return hit;
  const bytes = new Map<string, number>();
  const visit = async (oid: string, prefix: string): Promise<void> => {
    for (const entry of (await git.readTree({ fs, gitdir, oid, cache })).tree) {
      const path = `${prefix}${entry.path}`;
      if (entry.type === "tree") await visit(entry.oid, `${path}/`);
      // Files only: symbolic links (120000) and submodules hold no code of their own.
      else if (entry.type === "blob" && entry.mode !== "120000") {
        const language = languageOf(path);
        if (!language) continue;
        const { object } = await git.readObject({ fs, gitdir, oid: entry.oid, format: "content", cache });
        bytes.set(language, (bytes.get(language) ?? 0) + (object as Uint8Array).length);
      }
    }
  };
  await visit(tree, "");
  const total = [...bytes.values()].reduce((sum, n) => sum + n, 0);
  const shares = Object.fromEntries(
    [...bytes].filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1]).map(([language, n]) => [language, Math.round((n / total) * 10_000) / 100]),
  );
  if (cached.size >= CACHED_TREES) cached.delete(cached.keys().next().value!);
  cached.set(tree, shares);
  return shares;
}
