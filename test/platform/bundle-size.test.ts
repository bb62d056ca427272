/**
 * Every function's Lambda bundle, built as `npm run build` builds it, stays within its size budget:
 * `BUDGET_RATIO` × a bare Hono + `@aws-sdk/client-dynamodb` handler bundled in the same call (plus
 * isomorphic-git bundled alone, for functions that read or write repositories). Sizes are bytes, so
 * this is deterministic; cold-start times are in `npm run bench`.
 */
import { describe, it, expect, inject } from "vitest";
import { BUDGET_RATIO } from "../../local/isolated/budget.js";
import { functionSpecs, kib, readBuild, sizeBudget } from "../../local/isolated/bundle.js";

// The bundles the isolated project's setup built, and that its functions run: what ships is what is measured.
const build = readBuild(inject("isolatedBuildDir")!);

describe("Lambda bundles", () => {
  it("exist for every function of the route table and of workers", () => {
    expect(build.functions.map((f) => f.name).sort()).toEqual(functionSpecs().map((f) => f.name).sort());
    expect(build.functions.length).toBeGreaterThan(100);
  });

  it(`each weighs at most ${BUDGET_RATIO}× the bare handler (+ isomorphic-git where used)`, () => {
    const over = build.functions
      .filter((fn) => fn.bytes > sizeBudget(fn, build, BUDGET_RATIO))
      .map((fn) => `${fn.name}: ${kib(fn.bytes)} > ${kib(sizeBudget(fn, build, BUDGET_RATIO))}`);
    expect(over, `bare handler ${kib(build.bare.bytes)}, isomorphic-git ${kib(build.gitAlone.bytes)}, bzip2 ${kib(build.bzip2Alone.bytes)}, Markdown ${kib(build.markdownAlone.bytes)}`).toEqual([]);
  });

  it("carry the Markdown renderer only where Markdown is rendered: POST /markdown and reading one wiki page", () => {
    expect(build.functions.filter((f) => f.markdown).map((f) => f.module).sort()).toEqual(["hosting/http/get-project-wiki-page", "hosting/http/get-wiki-page", "markdown/http/render-markdown"]);
  });

  it("validate with zod/mini, never classic zod (its methods cannot be tree-shaken: 70-100 KB a bundle)", () => {
    const classic = build.functions.filter((fn) => fn.inputs.some((input) => input.includes("node_modules/zod/v4/classic/")));
    expect(classic.map((fn) => fn.name)).toEqual([]);
    const mini = build.functions.filter((fn) => fn.inputs.some((input) => input.includes("node_modules/zod/v4/mini/")));
    expect(mini.length).toBeGreaterThan(100);
  });

  it("carry isomorphic-git only where repositories are read or written, and SDK clients only where used", async () => {
    const { readFileSync } = await import("node:fs");
    const git = build.functions.filter((f) => f.git).map((f) => f.module!);
    expect(git.length).toBeGreaterThan(0);
    expect(git.every((m) => m.startsWith("hosting/") || m.startsWith("moves/") || m.startsWith("backup/"))).toBe(true);
    const version = readFileSync(build.functions.find((f) => f.module === "identity/http/version")!.file, "utf8");
    // Service ids the SQS and Step Functions clients register; a DynamoDB-only function has neither.
    expect(version).not.toMatch(/AmazonSQS|AWSStepFunctions/);
    expect(version).toMatch(/DynamoDB_20120810/);
  });
});
