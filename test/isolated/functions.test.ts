/**
 * Against `npm start -- --isolated` (the "isolated" project): every answer comes from a function's
 * Lambda bundle, run in its own process and invoked with an API Gateway HTTP API 2.0 event.
 */
import { describe, it, expect } from "vitest";
import { api, newUser } from "../support/api.js";

const AUTH_CACHE_MS = 3000; // FORGELINE_AUTH_CACHE_MS's default, which this runtime keeps

describe("isolated mode", () => {
  it("GET /api/v4/openapi.json answers 200 from its bundle, with every /api/v4 route", async () => {
    const res = await api("GET", "/api/v4/openapi.json");
    expect(res.status).toBe(200);
    // Answered through an invocation: API Gateway's request id is the function's request id.
    expect(res.headers.get("apigw-requestid")).toBeTruthy();
    expect(res.headers.get("x-request-id")).toBe(res.headers.get("apigw-requestid"));
    expect(res.body.openapi).toBe("3.1.0");
    expect(Object.keys(res.body.paths)).toEqual(expect.arrayContaining(["/api/v4/projects", "/api/v4/projects/{id}/repository_storage_moves", "/api/v4/users/{user_id}"]));
    expect(res.body.paths["/api/v4/projects"].post.requestBody).toBeDefined();
  });

  it("answers an unknown route as API Gateway does", async () => {
    const res = await api("GET", "/api/v4/no-such-route");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: "Not Found" });
  });

  it("refuses a body whose event exceeds Lambda's 6 MB payload limit before any function runs, as AWS does", async () => {
    const admin = await newUser({ admin: true });
    // 7 MiB: under the functions' own 10 MiB limit, over what Lambda accepts as an invocation.
    const res = await api("POST", "/api/v4/projects", { token: admin.token, raw: JSON.stringify({ name: "x".repeat(7 * 1024 * 1024) }), headers: { "Content-Type": "application/json" } });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ message: "Request Entity Too Large" });
    expect(res.headers.get("apigw-requestid")).toBeNull();
    // Just under the limit, the function answers in GitLab's words (its own validation).
    const under = await api("POST", "/api/v4/projects", { token: admin.token, raw: JSON.stringify({ name: "x".repeat(5 * 1024 * 1024) }), headers: { "Content-Type": "application/json" } });
    expect(under.status).toBe(400);
    expect(under.headers.get("apigw-requestid")).toBeTruthy();
  });

  it("a token revoked through one function stops working on another within FORGELINE_AUTH_CACHE_MS", async () => {
    const user = await newUser();
    // GET /user's function looks the token up and keeps it for up to AUTH_CACHE_MS.
    expect((await api("GET", "/api/v4/user", { token: user.token })).status).toBe(200);
    expect((await api("DELETE", "/api/v4/personal_access_tokens/self", { token: user.token })).status).toBe(204);
    const revokedAt = Date.now();
    // A function that never saw the token refuses it at once.
    expect((await api("GET", "/api/v4/personal_access_tokens/self", { token: user.token })).status).toBe(401);
    // The one that cached it refuses it once its entry expired: the documented bound.
    await new Promise((r) => setTimeout(r, Math.max(0, revokedAt + AUTH_CACHE_MS + 100 - Date.now())));
    expect((await api("GET", "/api/v4/user", { token: user.token })).status).toBe(401);
  });
});
