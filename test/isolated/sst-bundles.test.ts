/**
 * Every function as SST bundles it for the deploy: plain esbuild with the options SST derives from
 * what `stacks/` gives the function (`local/isolated/sst-esbuild.ts`), no plugin. The bundles are
 * the isolated project's build (`npm run build`'s, linked from the build cache when nothing
 * changed); a few functions bundled here by esbuild alone must come out byte for byte the same.
 * Each function then runs from its bundle in a process of its own with only its links: every route
 * and function URL answers an API Gateway event without a 5xx, every queue worker an empty batch,
 * and every cron and task imports and exports a handler (their work is the subject of their suites).
 */
import { describe, it, expect, beforeAll, afterAll, inject } from "vitest";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as esbuild from "esbuild";
import { functionSpecs, readBuild, ROOT, type FunctionSpec } from "../../local/isolated/bundle.js";
import { functionBuildOptions } from "../../local/isolated/sst-esbuild.js";
import { httpApiEvent, type HttpApiResult } from "../../local/isolated/events.js";
import { startIsolatedFunctions, type IsolatedFunctions } from "../../local/isolated/index.js";
import { toApiGatewayPath } from "../../functions/platform/http/lambda.js";
import { buildOpenApiDocument } from "../../functions/platform/http/openapi-document.js";

const build = readBuild(inject("isolatedBuildDir")!);
const plainDir = mkdtempSync(join(tmpdir(), "forgeline-plain-esbuild-"));
let isolated: IsolatedFunctions;

beforeAll(async () => {
  isolated = await startIsolatedFunctions({ buildDir: inject("isolatedBuildDir"), prebuilt: true });
});

afterAll(async () => {
  await isolated?.stop();
  rmSync(plainDir, { recursive: true, force: true });
});

/** `module` bundled by esbuild alone with SST's options, laid out as the build lays it out. */
async function plainBundle(module: string): Promise<string> {
  const name = module.replace(/\//g, ".");
  await esbuild.build({
    ...functionBuildOptions(module),
    absWorkingDir: ROOT,
    entryPoints: [{ in: join(ROOT, "functions", `${module}.ts`), out: `${name}/index` }],
    outdir: plainDir,
    outExtension: { ".js": ".mjs" },
    logLevel: "error",
  });
  return join(plainDir, name, "index.mjs");
}

/** A bundle's size and digest (a failure prints these, not half a megabyte of minified code). */
const fingerprint = (file: string) => {
  const bytes = readFileSync(file);
  return { bytes: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex") };
};

/** A concrete request for a route path: each parameter `1`, a trailing wildcard `x`. */
function requestFor(method: string, path: string) {
  const pathParameters: Record<string, string> = {};
  const concrete = path
    .replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => {
      pathParameters[name] = "1";
      return "1";
    })
    .replace(/\*$/, () => {
      pathParameters.proxy = "x";
      return "x";
    });
  const hasBody = !["GET", "HEAD", "DELETE"].includes(method);
  const request = new Request(`http://127.0.0.1${concrete}`, { method, ...(hasBody ? { body: "{}", headers: { "content-type": "application/json" } } : {}) });
  return { request, pathParameters };
}

async function invokeHttp(fn: FunctionSpec, bundle?: string): Promise<HttpApiResult> {
  const route = fn.routes[0];
  const [method, path, routeKey] = route ? [route.method, route.path, `${route.method} ${toApiGatewayPath(route.path)}`] : ["GET", fn.worker!.paths![0]!, "$default"];
  const { request, pathParameters } = requestFor(method, path);
  const event = await httpApiEvent(request, { routeKey, pathParameters });
  const definition = isolated.definition(fn.module);
  try {
    return (await isolated.pool.invoke(bundle ? { ...definition, name: `plain-${definition.name}`, bundle } : definition, event)) as HttpApiResult;
  } finally {
    await isolated.pool.recycle(bundle ? `plain-${definition.name}` : definition.name);
  }
}

describe("the build is plain esbuild with SST's options", () => {
  // The OpenAPI route (it holds a generated module), the one function with `nodejs.install`
  // (its package stays external), and a worker.
  it.each(["platform/http/openapi-route", "academic/http/swagger-ui", "errortracking/workers/hook-delivery"])("%s: bundled alone, the same bytes", async (module) => {
    const built = build.functions.find((f) => f.module === module)!;
    expect(fingerprint(await plainBundle(module))).toEqual(fingerprint(built.file));
  });

  it("GET /api/v4/openapi.json answers 200 from its plain bundle, with the document the route modules describe", async () => {
    const fn = functionSpecs().find((f) => f.module === "platform/http/openapi-route")!;
    const res = await invokeHttp(fn, await plainBundle(fn.module));
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(res.body!)).toEqual(await buildOpenApiDocument());
  });
});

const specs = functionSpecs();

describe.concurrent.each(specs.filter((f) => f.kind === "route" || f.kind === "url"))("$name", (fn) => {
  it("answers an API Gateway event without a 5xx", async () => {
    const res = await invokeHttp(fn);
    expect(res.statusCode, res.body).toBeLessThan(500);
  });
});

describe.concurrent.each(specs.filter((f) => f.kind === "queue"))("$name", (fn) => {
  it("takes an empty SQS batch", async () => {
    const definition = isolated.definition(fn.module);
    try {
      const res = (await isolated.pool.invoke(definition, { Records: [] })) as { batchItemFailures?: unknown[] } | null;
      expect(res?.batchItemFailures ?? []).toEqual([]);
    } finally {
      await isolated.pool.recycle(definition.name);
    }
  });
});

describe.concurrent.each(specs.filter((f) => f.kind === "cron" || f.kind === "task"))("$name", (fn) => {
  it("imports and exports a handler", async () => {
    const definition = isolated.definition(fn.module);
    try {
      expect(await isolated.pool.initialise(definition)).toBeGreaterThan(0);
    } finally {
      await isolated.pool.recycle(definition.name);
    }
  });
});
