import { describe, it, expect } from "vitest";
import type { Context } from "aws-lambda";
import { baseUrl } from "../support/api.js";
import { handler } from "../../functions/web/http/favicon.js";

/** ICONDIR (reserved 0, type 1 = icon, one image) whose image is a PNG. */
function expectIcon(bytes: Buffer) {
  expect([bytes.readUInt16LE(0), bytes.readUInt16LE(2), bytes.readUInt16LE(4)]).toEqual([0, 1, 1]);
  expect(bytes.subarray(bytes.readUInt32LE(18), bytes.readUInt32LE(18) + 4).toString("latin1")).toBe("\x89PNG");
}

describe("/favicon.ico", () => {
  it("answers an icon, so a page load does not log a 404", async () => {
    const res = await fetch(`${baseUrl()}/favicon.ico`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/x-icon");
    expectIcon(Buffer.from(await res.arrayBuffer()));
  });

  it("comes out of its Lambda handler base64-encoded, as API Gateway expects binary bodies", async () => {
    const event = {
      version: "2.0",
      routeKey: "GET /favicon.ico",
      rawPath: "/favicon.ico",
      rawQueryString: "",
      headers: { host: "api.example.test" },
      requestContext: { accountId: "1", apiId: "api", domainName: "api.example.test", http: { method: "GET", path: "/favicon.ico", protocol: "HTTP/1.1", sourceIp: "127.0.0.1", userAgent: "test" }, requestId: "fav-1", routeKey: "GET /favicon.ico", stage: "$default", time: new Date().toUTCString(), timeEpoch: Date.now() },
      isBase64Encoded: false,
    };
    const context = { awsRequestId: "ctx", functionName: "test", getRemainingTimeInMillis: () => 30_000 } as unknown as Context;
    const res = (await handler(event as never, context)) as { statusCode: number; body: string; isBase64Encoded: boolean };
    expect([res.statusCode, res.isBase64Encoded]).toEqual([200, true]);
    expectIcon(Buffer.from(res.body, "base64"));
  });
});
