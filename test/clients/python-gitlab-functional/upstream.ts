/**
 * Runs python-gitlab's own functional tests (v3.12.0, the release Debian ships) against a runtime:
 * a temporary copy of upstream's unchanged test folder, upstream's conftest kept beside it as
 * `upstream_conftest.py` for its data fixtures, and this project's adapter conftest in its place.
 * Upstream's test files are never copied into the project.
 */
import { spawn } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { DEBIAN_PYTHON } from "../tools.js";

const EXPORT = join("shared", "third-party", "python-gitlab-3.12.0");

/**
 * Where the unchanged export of upstream's tests lives: `PYTHON_GITLAB_FUNCTIONAL_TESTS`, else a
 * `shared/third-party/python-gitlab-3.12.0` beside the checkout or beside any folder above it (a CI
 * clone may sit a level deeper than the working copy).
 */
export function upstreamFolder(): string {
  const candidates: string[] = [];
  if (process.env.PYTHON_GITLAB_FUNCTIONAL_TESTS) candidates.push(process.env.PYTHON_GITLAB_FUNCTIONAL_TESTS);
  else for (let dir = resolve(import.meta.dirname, "../../../.."); ; dir = dirname(dir)) {
    candidates.push(join(dir, EXPORT));
    if (dirname(dir) === dir) break;
  }
  const folder = candidates.find((c) => existsSync(join(c, "tests/functional/api")));
  if (!folder) {
    throw new Error(`python-gitlab 3.12.0's functional tests are not at ${candidates[0]}: set PYTHON_GITLAB_FUNCTIONAL_TESTS to the folder that holds tests/functional/ and pyproject.toml`);
  }
  return folder;
}

export type Outcome = "passed" | "failed" | "skipped";
export interface TestResult {
  /** `api/test_users.py::test_block_user`, with pytest's parameter id when there is one. */
  id: string;
  outcome: Outcome;
  /** First line of the failure or skip reason. */
  detail: string;
}

function copyTree(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const name of readdirSync(from)) {
    const source = join(from, name);
    if (statSync(source).isDirectory()) copyTree(source, join(to, name));
    else {
      copyFileSync(source, join(to, name));
      chmodSync(join(to, name), 0o644); // the export is read-only; the copy is ours
    }
  }
}

/** Copies upstream and the adapter to a temporary folder, runs pytest on `files` (relative to tests/functional/), parses its JUnit report. */
export async function runUpstream(files: string[], env: { GITLAB_URL: string; GITLAB_TOKEN: string }): Promise<{ results: TestResult[]; output: string }> {
  const work = mkdtempSync(join(tmpdir(), "python-gitlab-functional-"));
  try {
    copyTree(upstreamFolder(), work);
    const functional = join(work, "tests/functional");
    copyFileSync(join(functional, "conftest.py"), join(functional, "upstream_conftest.py"));
    copyFileSync(join(import.meta.dirname, "conftest.py"), join(functional, "conftest.py"));
    const report = join(work, "report.xml");
    const args = ["-m", "pytest", "-p", "no:cacheprovider", "-q", `--junitxml=${report}`, ...files.map((f) => `tests/functional/${f}`)];
    const output = await new Promise<string>((done, fail) => {
      const child = spawn(DEBIAN_PYTHON, args, { cwd: work, env: { ...process.env, ...env, PYTHONDONTWRITEBYTECODE: "1" } });
      let text = "";
      child.stdout.on("data", (d) => (text += d));
      child.stderr.on("data", (d) => (text += d));
      child.on("error", fail);
      child.on("close", () => done(text));
    });
    if (!existsSync(report)) throw new Error(`pytest wrote no report:\n${output}`);
    return { results: parseJUnit(readFileSync(report, "utf8")), output };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const unescape = (s: string) => s.replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");

/**
 * One result per test. A fixture's teardown error is reported by pytest as a second `<testcase>` of
 * the same name: the test counts as failed when any of its entries did.
 */
export function parseJUnit(xml: string): TestResult[] {
  const byId = new Map<string, TestResult>();
  for (const m of xml.matchAll(/<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g)) {
    const attrs = Object.fromEntries([...m[1]!.matchAll(/(\w+)="([^"]*)"/g)].map((a) => [a[1], unescape(a[2]!)]));
    const problem = /<(failure|error|skipped)\b([^>]*)>/.exec(m[3] ?? "");
    const message = /message="([^"]*)"/.exec(problem?.[2] ?? "")?.[1] ?? "";
    const module = String(attrs.classname ?? "").replace(/^tests\.functional\./, "").replace(/\./g, "/");
    const result: TestResult = {
      id: `${module}.py::${attrs.name}`,
      outcome: !problem ? "passed" : problem[1] === "skipped" ? "skipped" : "failed",
      detail: unescape(message).split("\n")[0]!.slice(0, 200),
    };
    const earlier = byId.get(result.id);
    if (!earlier || (earlier.outcome !== "failed" && result.outcome !== "passed")) byId.set(result.id, result);
  }
  return [...byId.values()];
}
