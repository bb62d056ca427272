/**
 * One-process mode beside the isolated runtime, to compare the two: the route table's modules
 * served by one local server in the test's own process, over the stand-ins and data of the
 * runtime the worker's environment names (worker-env.ts). A request sent to both at once meets
 * the same users, projects and tokens, so any difference in the answers is the mode's.
 */
import { isDeepStrictEqual } from "node:util";
import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { expect } from "vitest";
import { buildLocalApp } from "../../local/server.js";
import { baseUrl, requestAt, type ApiResponse } from "./api.js";

export interface OneProcess {
  baseUrl: string;
  stop(): Promise<void>;
}

export async function startOneProcess(): Promise<OneProcess> {
  const app = await buildLocalApp();
  const server: ServerType = await new Promise((ok) => {
    const s = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, () => ok(s));
  });
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () => new Promise<void>((done) => server.close(() => done())),
  };
}

/**
 * Headers whose values differ between any two answers (the date, request ids) or between two
 * servers' connections; every other header is compared, value for value.
 */
const PER_ANSWER = new Set(["date", "x-request-id", "apigw-requestid", "connection", "keep-alive", "transfer-encoding", "content-length"]);

/** The first element's keys for a list, the keys of an object, else the kind of body. */
function bodyShape(body: unknown): unknown {
  if (Array.isArray(body)) return { list: body.length > 0, item: bodyShape(body[0]) };
  if (body && typeof body === "object") return Object.keys(body).sort();
  return typeof body;
}

/**
 * What must match between the modes: the status, the body's shape, and the headers, with the
 * server's own origin written `<origin>` (each mode has its port; an https URL stays itself) and
 * each cookie's value left out (a fresh random one per answer), its attributes kept.
 */
export function comparable(res: ApiResponse, origin: string) {
  const local = (value: string) => value.split(origin).join("<origin>");
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    if (!PER_ANSWER.has(name) && name !== "set-cookie") headers[name] = local(value);
  });
  const cookies = res.headers.getSetCookie().map((cookie) => local(cookie.replace(/^([^=]+)=[^;]*/, "$1=…")));
  return { status: res.status, body: bodyShape(res.body), headers, cookies };
}

type RequestOptions = Parameters<typeof requestAt>[3];

/**
 * Asserts that one process answers the request as the isolated runtime did (`isolated`, its
 * answer). Only a request that changed nothing is sent again: a GET or HEAD, or one refused. A
 * list can change between the two requests (other tests create projects), so both are asked once
 * more, together, before a difference counts.
 */
export async function expectSameAnswer(oneProcess: OneProcess, method: string, path: string, opts: RequestOptions, isolated: ApiResponse): Promise<void> {
  if (method !== "GET" && method !== "HEAD" && isolated.status < 400) return;
  let answers = [comparable(isolated, baseUrl()), comparable(await requestAt(oneProcess.baseUrl, method, path, opts), oneProcess.baseUrl)];
  for (let attempt = 0; attempt < 2 && !isDeepStrictEqual(answers[0], answers[1]); attempt++) {
    const [again, local] = await Promise.all([requestAt(baseUrl(), method, path, opts), requestAt(oneProcess.baseUrl, method, path, opts)]);
    answers = [comparable(again, baseUrl()), comparable(local, oneProcess.baseUrl)];
  }
  expect(answers[0], `${method} ${path}: isolated mode (received) against one process (expected)`).toEqual(answers[1]);
}
