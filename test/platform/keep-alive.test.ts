/**
 * The local server keeps idle connections longer than clients reuse them (local/server.ts), so a
 * pooled connection is not closed under a client that is sending on it.
 */
import { Agent, request } from "node:http";
import { describe, expect, it } from "vitest";
import { baseUrl } from "../support/api.js";
import { IDLE_CONNECTION_SECONDS } from "../../local/server.js";

describe("keep-alive", () => {
  it("announces the long idle timeout and serves a second request on the same connection", async () => {
    const url = new URL("/api/v4/version", baseUrl());
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const get = () =>
      new Promise<{ status: number; keepAlive: string | undefined; socket: unknown }>((resolve, reject) => {
        const req = request(url, { agent }, (res) => {
          res.resume();
          res.on("end", () => resolve({ status: res.statusCode ?? 0, keepAlive: res.headers["keep-alive"] as string | undefined, socket: req.socket }));
        });
        req.on("error", reject);
        req.end();
      });
    try {
      const first = await get();
      expect(first.keepAlive).toBe(`timeout=${IDLE_CONNECTION_SECONDS}`);
      expect(IDLE_CONNECTION_SECONDS).toBeGreaterThan(60);
      const second = await get();
      expect(second.socket).toBe(first.socket);
      expect(second.status).toBe(first.status);
    } finally {
      agent.destroy();
    }
  });
});
