/**
 * The Lambda side of the same code: each route module's `handler` invoked with a real-shaped API
 * Gateway HTTP API (payload v2) event, learning its path pattern from `routeKey` as on AWS.
 */
import { describe, it, expect } from "vitest";
import { randomBytes } from "node:crypto";
import type { Context } from "aws-lambda";
import { adminToken, api, newUser, unique } from "../support/api.js";
import { routes } from "../../functions/routes.js";
import { toApiGatewayPath } from "../../functions/platform/http/lambda.js";
import { loadModule } from "../../local/server.js";
import { LAMBDA_ARCHIVE_LIMIT } from "../../functions/hosting/http/get-repository-archive.js";

type Handler = (event: unknown, ctx: Context) => Promise<{ statusCode: number; body: string; headers?: Record<string, string>; isBase64Encoded?: boolean }>;

function apiGatewayEvent(routeKey: string, rawPath: string, init: { headers?: Record<string, string>; body?: string; query?: string } = {}) {
  const [method] = routeKey.split(" ");
  return {
    version: "2.0",
    routeKey,
    rawPath,
    rawQueryString: init.query ?? "",
    headers: { host: "api.example.test", "x-forwarded-proto": "https", ...init.headers },
    requestContext: {
      accountId: "123456789012",
      apiId: "api",
      domainName: "api.example.test",
      http: { method, path: rawPath, protocol: "HTTP/1.1", sourceIp: "127.0.0.1", userAgent: "test" },
      requestId: "lambda-req-0001",
      routeKey,
      stage: "$default",
      time: new Date().toUTCString(),
      timeEpoch: Date.now(),
    },
    body: init.body,
    isBase64Encoded: false,
  };
}

async function handlerOf(method: string, path: string): Promise<{ handler: Handler; routeKey: string }> {
  const route = routes.find((r) => r.method === method && r.path === path)!;
  const mod = await loadModule<{ handler: Handler }>(route.module);
  return { handler: mod.handler, routeKey: `${method} ${toApiGatewayPath(path)}` };
}

const context = { awsRequestId: "ctx-1", functionName: "test", getRemainingTimeInMillis: () => 30_000 } as unknown as Context;

describe("route modules as Lambda handlers", () => {
  it("serves GET /api/v4/user from an API Gateway v2 event", async () => {
    const { handler, routeKey } = await handlerOf("GET", "/api/v4/user");
    const res = await handler(apiGatewayEvent(routeKey, "/api/v4/user", { headers: { "private-token": adminToken() } }), context);
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(res.body).username).toBe("root");
    expect(res.headers?.["x-request-id"]).toBe("lambda-req-0001");
    const anonymous = await handler(apiGatewayEvent(routeKey, "/api/v4/user"), context);
    expect(anonymous.statusCode).toBe(401);
  });

  it("extracts path parameters (an URL-encoded project path) and builds https links", async () => {
    const owner = await newUser();
    const created = await api("POST", "/api/v4/projects", { token: owner.token, body: { name: unique("lambda") } });
    const { handler, routeKey } = await handlerOf("GET", "/api/v4/projects/:id");
    expect(routeKey).toBe("GET /api/v4/projects/{id}");
    const rawPath = `/api/v4/projects/${encodeURIComponent(created.body.path_with_namespace)}`;
    const res = await handler(apiGatewayEvent(routeKey, rawPath, { headers: { "private-token": owner.token } }), context);
    expect(res.statusCode).toBe(200);
    const body = JSON.parse(res.body);
    expect(body.id).toBe(created.body.id);
    expect(body.web_url).toBe(`https://api.example.test/${created.body.path_with_namespace}`);
  });

  it("drops undeclared parameters as GitLab does, naming them in a debug line without their values", async () => {
    const { handler, routeKey } = await handlerOf("POST", "/api/v4/groups");
    const path = unique("dropped");
    const lines: string[] = [];
    const write = process.stdout.write;
    const level = process.env.LOG_LEVEL;
    process.env.LOG_LEVEL = "debug";
    process.stdout.write = ((chunk: string) => lines.push(String(chunk)) > 0) as typeof process.stdout.write;
    let res: Awaited<ReturnType<Handler>>;
    try {
      res = await handler(
        apiGatewayEvent(routeKey, "/api/v4/groups", {
          headers: { "private-token": adminToken(), "content-type": "application/json" },
          query: "from_the_query=query-secret-value",
          body: JSON.stringify({ name: "Dropped", path, legacy_field: "body-secret-value" }),
        }),
        context,
      );
    } finally {
      process.stdout.write = write;
      if (level === undefined) delete process.env.LOG_LEVEL;
      else process.env.LOG_LEVEL = level;
    }
    expect(res.statusCode).toBe(201);
    expect(JSON.parse(res.body)).toMatchObject({ path });
    expect(JSON.parse(res.body)).not.toHaveProperty("legacy_field");
    const dropped = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.msg === "undeclared parameters dropped");
    expect(dropped).toEqual([expect.objectContaining({ level: "debug", names: ["from_the_query", "legacy_field"] })]);
    expect(lines.join("")).not.toMatch(/secret-value/);
  });

  it("does not name `name[]` lists, which routes read themselves (`skip_groups[]`), among the undeclared parameters", async () => {
    const { handler, routeKey } = await handlerOf("GET", "/api/v4/groups");
    const lines: string[] = [];
    const write = process.stdout.write;
    const level = process.env.LOG_LEVEL;
    process.env.LOG_LEVEL = "debug";
    process.stdout.write = ((chunk: string) => lines.push(String(chunk)) > 0) as typeof process.stdout.write;
    let res: Awaited<ReturnType<Handler>>;
    try {
      res = await handler(apiGatewayEvent(routeKey, "/api/v4/groups", { headers: { "private-token": adminToken() }, query: "skip_groups%5B%5D=1&skip_groups%5B%5D=2&not_a_param=x" }), context);
    } finally {
      process.stdout.write = write;
      if (level === undefined) delete process.env.LOG_LEVEL;
      else process.env.LOG_LEVEL = level;
    }
    expect(res.statusCode).toBe(200);
    const named = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.msg === "undeclared parameters dropped");
    expect(named).toEqual([expect.objectContaining({ names: ["not_a_param"] })]);
  });

  it("validates a JSON body the same way as the local server", async () => {
    const { handler, routeKey } = await handlerOf("POST", "/api/v4/groups");
    const res = await handler(
      apiGatewayEvent(routeKey, "/api/v4/groups", { headers: { "private-token": adminToken(), "content-type": "application/json" }, body: '{"name":"x"}' }),
      context,
    );
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(res.body)).toEqual({ error: "path is missing" });
  });
  it("buffers a repository archive within API Gateway's payload limit and refuses a larger one in GitLab's shape", async () => {
    const owner = await newUser();
    const created = await api("POST", "/api/v4/projects", { token: owner.token, body: { name: unique("lambda-archive"), initialize_with_readme: true } });
    const { handler, routeKey } = await handlerOf("GET", "/api/v4/projects/:id/repository/:archive");
    const call = async (archive: string, query = "") => {
      // As on AWS: the function knows it runs in Lambda, whose answer the adapter buffers.
      process.env.AWS_LAMBDA_FUNCTION_NAME = "get-repository-archive";
      try {
        return await handler(apiGatewayEvent(routeKey, `/api/v4/projects/${created.body.id}/repository/${archive}`, { headers: { "private-token": owner.token }, query }), context);
      } finally {
        delete process.env.AWS_LAMBDA_FUNCTION_NAME;
      }
    };
    const small = await call("archive.zip");
    expect(small).toMatchObject({ statusCode: 200, isBase64Encoded: true });
    expect(Buffer.from(small.body, "base64").subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]));

    // Random bytes: no format shrinks them below the limit.
    const big = randomBytes(LAMBDA_ARCHIVE_LIMIT + 100_000).toString("base64");
    const commit = await api("POST", `/api/v4/projects/${created.body.id}/repository/commits`, {
      token: owner.token,
      body: { branch: "big", start_branch: "main", commit_message: "big", actions: [{ action: "create", file_path: "big.bin", content: big, encoding: "base64" }] },
    });
    expect(commit.status).toBe(201);
    const refused = await call("archive.tar", "sha=big");
    expect(refused.statusCode).toBe(413);
    expect(JSON.parse(refused.body)).toEqual({ message: `413 Archive Too Large - over ${LAMBDA_ARCHIVE_LIMIT} bytes, the most one answer can carry here; narrow it with path or exclude_paths` });
    expect((await call("archive.tar", "sha=main")).statusCode).toBe(200);
  });

  it("hands API Gateway only printable-ASCII headers for a file whose name holds a newline and an emoji", async () => {
    const owner = await newUser();
    const created = await api("POST", "/api/v4/projects", { token: owner.token, body: { name: unique("lambda-names") } });
    const name = "line\nbreak 🎉.txt";
    const file = `/api/v4/projects/${created.body.id}/repository/files/${encodeURIComponent(name)}`;
    expect((await api("POST", file, { token: owner.token, body: { branch: "main", content: "x", commit_message: "odd name" } })).status).toBe(201);
    const answers = [
      [await handlerOf("GET", "/api/v4/projects/:id/repository/files/:file_path"), file, "ref=main"],
      [await handlerOf("GET", "/api/v4/projects/:id/repository/files/:file_path/raw"), `${file}/raw`, "ref=main"],
      [await handlerOf("GET", "/api/v4/projects/:id/repository/:archive"), `/api/v4/projects/${created.body.id}/repository/archive.tar`, `path=${encodeURIComponent(name)}`],
    ] as const;
    for (const [{ handler, routeKey }, rawPath, query] of answers) {
      const res = await handler(apiGatewayEvent(routeKey, rawPath, { headers: { "private-token": owner.token }, query }), context);
      expect({ routeKey, status: res.statusCode }).toEqual({ routeKey, status: 200 });
      for (const [header, value] of Object.entries(res.headers ?? {})) expect({ header, value }).toEqual({ header, value: expect.stringMatching(/^[\x20-\x7e]*$/) });
    }
  });
});
