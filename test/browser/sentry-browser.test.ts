/**
 * The real `@sentry/browser` SDK in headless Chromium, on a page of another origin: the page is
 * served from its own loopback port and loads the SDK bundled by esbuild from the npm package; its
 * DSN (from the client keys API) points at this service's ingest on another port, so every envelope
 * is a cross-origin request. The SDK posts `text/plain` envelopes with the key in the query string
 * (no preflight); a second client sends a request header, so Chromium asks with a CORS preflight
 * first; the last event is captured while the page unloads and travels in the SDK's `keepalive`
 * fetch (the modern SDK uses no `sendBeacon`). Every envelope must get a 200 the page can read
 * (CORS headers on the answer), and the error list must show each error with its count.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { build } from "esbuild";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import { api } from "../support/api.js";
import { trackedProject, waitForEvents } from "../errortracking/support.js";
import { launch, type LaunchedBrowser } from "./support.js";

/** The SDK as an application bundles it: one IIFE exposing the package's exports as `window.Sentry`. */
async function sdkBundle(): Promise<string> {
  const out = await build({
    stdin: { contents: `import * as Sentry from "@sentry/browser"; window.Sentry = Sentry;`, resolveDir: resolve(import.meta.dirname, "../.."), loader: "js" },
    bundle: true,
    format: "iife",
    platform: "browser",
    target: "chrome120",
    write: false,
    logLevel: "silent",
  });
  return out.outputFiles[0]!.text;
}

/** The application: its own errors, a second client whose header needs a preflight, one event on unload. */
function appScript(dsn: string): string {
  return `
    window.outcomes = [];
    // The SDK's own fetch transport, with each answer it reads recorded (a CORS failure rejects the fetch).
    const recorded = (client) => (options) => {
      const transport = Sentry.makeFetchTransport(options);
      return { ...transport, send: (envelope) => {
        const items = envelope[1].map(([header]) => header.type).join(",");
        return transport.send(envelope).then(
          (res) => (outcomes.push({ client, items, status: res.statusCode }), res),
          (err) => { outcomes.push({ client, items, error: String(err) }); throw err; });
      } };
    };
    Sentry.init({ dsn: ${JSON.stringify(dsn)}, release: "shop@3.1.0", environment: "browser-e2e", transport: recorded("page") });
    Sentry.setUser({ id: "shopper-1" });

    function checkout() { throw new Error("checkout failed: card declined"); }
    function pay() { try { checkout(); } catch (e) { Sentry.captureException(e); } }
    pay();
    pay();
    Sentry.captureMessage("cart is empty", "warning");
    setTimeout(() => { null.explode(); }); // uncaught: the SDK's global handlers report it

    const preflighted = new Sentry.BrowserClient({
      dsn: ${JSON.stringify(dsn)},
      transport: recorded("preflighted"),
      transportOptions: { headers: { "X-Requested-With": "shop" } },
      stackParser: Sentry.defaultStackParser,
      integrations: [],
    });
    preflighted.captureMessage("sent after a preflight");

    addEventListener("pagehide", () => Sentry.captureMessage("captured while leaving the page"));
  `;
}

let page: Server;
let pageOrigin: string;
let browser: LaunchedBrowser;
let tracked: Awaited<ReturnType<typeof trackedProject>>;
let dsn: string;

beforeAll(async () => {
  tracked = await trackedProject();
  [{ sentry_dsn: dsn }] = (await api("GET", `/api/v4/projects/${tracked.project.id}/error_tracking/client_keys`, { token: tracked.owner.token })).body;
  const files: Record<string, [string, string]> = {
    "/": ["text/html", `<!doctype html><title>shop</title><script src="/sentry.js"></script><script src="/app.js"></script>`],
    "/sentry.js": ["text/javascript", await sdkBundle()],
    "/app.js": ["text/javascript", appScript(dsn)],
    "/next": ["text/html", `<!doctype html><title>next</title>`],
  };
  page = createServer((req, res) => {
    const file = files[req.url ?? ""];
    res.writeHead(file ? 200 : 404, { "content-type": file?.[0] ?? "text/plain" }).end(file?.[1] ?? "");
  });
  await new Promise<void>((ok) => page.listen(0, "127.0.0.1", ok));
  pageOrigin = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await new Promise((ok) => page?.close(ok));
});

describe("@sentry/browser in headless Chromium, from another origin", () => {
  it("the ingest answers the preflight as Relay does", async () => {
    const url = new URL(dsn);
    const envelope = `${url.origin}/api/v4/error_tracking/collector/api/${tracked.project.id}/envelope/`;
    const res = await fetch(envelope, {
      method: "OPTIONS",
      headers: { Origin: "http://127.0.0.1:1", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "x-requested-with, x-sentry-auth" },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-methods")).toContain("POST");
    expect(res.headers.get("access-control-allow-headers")).toEqual(expect.stringContaining("x-requested-with"));
    expect(res.headers.get("access-control-allow-headers")).toEqual(expect.stringContaining("x-sentry-auth"));
  });

  it("captureException, captureMessage, an uncaught error, a preflighted client and an event on unload all arrive with their counts", async () => {
    const { page: tab } = browser;
    const ingestOrigin = new URL(dsn).origin;
    expect(ingestOrigin).not.toBe(pageOrigin);
    const envelopes: Array<{ contentType: string | null; url: string }> = [];
    tab.on("request", (req) => {
      if (req.url().startsWith(ingestOrigin) && req.method() === "POST") envelopes.push({ contentType: req.headers()["content-type"] ?? null, url: req.url() });
    });
    await tab.goto(pageOrigin + "/");
    type Outcome = { client: string; items: string; status?: number; error?: string };
    const outcomes = async () => tab.evaluate<Outcome[]>("window.outcomes");
    const sent = async () => {
      const all = await outcomes();
      return { events: all.filter((o) => o.items.split(",").includes("event")).map((o) => o.client).sort(), session: all.some((o) => o.items === "session") };
    };
    // The page's four events (two exceptions, a message, the uncaught error), the preflighted client's
    // one, and the page's session envelopes (started, then errored) around them.
    await expect.poll(sent, { timeout: 30_000 }).toEqual({ events: ["page", "page", "page", "page", "preflighted"], session: true });
    const all = await outcomes();
    expect(all.filter((o) => o.status !== 200), "every envelope answered 200, readable cross-origin").toEqual([]);
    expect(envelopes.length).toBeGreaterThanOrEqual(all.length);
    for (const e of envelopes) {
      expect(e.contentType).toMatch(/^text\/plain/);
      expect(e.url).toMatch(/\/envelope\/\?sentry_version=7&sentry_key=glet_[0-9a-f]+/);
    }

    await tab.goto(pageOrigin + "/next"); // pagehide: one more event, in a keepalive fetch that outlives the page

    const errors = await waitForEvents(tracked.owner.token, tracked.ui, 6);
    const byTitle = Object.fromEntries(errors.map((e) => [e.title, e]));
    expect(errors, JSON.stringify(errors.map((e) => e.title))).toHaveLength(5);
    expect(byTitle["Error: checkout failed: card declined"]).toMatchObject({ count: 2, user_count: 1, type: "error" });
    expect(byTitle["cart is empty"]).toMatchObject({ count: 1, user_count: 1 });
    expect(byTitle["sent after a preflight"]).toMatchObject({ count: 1 });
    expect(byTitle["captured while leaving the page"]).toMatchObject({ count: 1, user_count: 1 });
    const uncaught = errors.find((e) => e.title.startsWith("TypeError"));
    expect(uncaught).toMatchObject({ count: 1, user_count: 1 });
    const detail = await api("GET", `${tracked.ui}/${byTitle["Error: checkout failed: card declined"]!.id}/details.json`, { token: tracked.owner.token });
    expect(detail.body.error).toMatchObject({ last_release_short_version: "shop@3.1.0" });
  });
});
