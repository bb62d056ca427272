/**
 * Pages carry the security headers, run under their Content-Security-Policy without a single
 * violation in Chromium, and cannot be framed by another origin; JSON answers say `nosniff`.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { call, sendWithSdk, startTracker, waitFor } from "../errortracking/thirdparty-support.js";
import { launch, signIn } from "./support.js";

let inst: Awaited<ReturnType<typeof startTracker>>;
let browser: Awaited<ReturnType<typeof launch>>;
let errorId: string;

beforeAll(async () => {
  inst = await startTracker();
  await sendWithSdk(inst.dsn);
  const list = await waitFor(() => call(inst.base, "GET", `${inst.ui}.json`, inst.token), (r) => r.body.errors?.length === 2);
  errorId = String(list.body.errors[0].id);
  browser = await launch();
  await signIn(browser.page, inst.base, inst.token, inst.ui);
});
afterAll(async () => {
  await browser?.close();
  await inst?.own.stop();
});

const ACADEMIC = { Authorization: `Basic ${Buffer.from("admin_dev:admin-dev-clave").toString("base64")}` };

/** Every HTML page: path, and the element that shows its script ran. */
const pages = () => [
  { path: "/users/sign_in", ready: "form" },
  { path: "/", ready: "main" },
  { path: inst.ui, ready: "#rows tr" },
  { path: `${inst.ui}/${errorId}/details`, ready: ".frame" },
  { path: `/${inst.project.path_with_namespace}/-/settings/monitor`, ready: "form" },
  { path: "/no-such-group/no-such-project/-/error_tracking", ready: "h1" },
];

function expectPageHeaders(headers: Headers, where: string) {
  const csp = headers.get("content-security-policy") ?? "";
  for (const directive of ["script-src 'self'", "object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'"]) expect(csp, where).toContain(directive);
  expect(csp, where).not.toMatch(/unsafe-inline|unsafe-eval/);
  expect(headers.get("x-frame-options"), where).toBe("DENY");
  expect(headers.get("x-content-type-options"), where).toBe("nosniff");
  expect(headers.get("referrer-policy"), where).toBe("strict-origin-when-cross-origin");
}

describe("security headers", () => {
  it("every HTML response carries the policy, JSON and assets say nosniff", async () => {
    const cookie = (await browser.context.cookies(inst.base)).map((c) => `${c.name}=${c.value}`).join("; ");
    for (const { path } of pages()) {
      const res = await fetch(inst.base + path, { headers: { cookie }, redirect: "manual" });
      expect(res.headers.get("content-type"), path).toMatch(/^text\/html/);
      expectPageHeaders(res.headers, path);
    }
    for (const path of ["/rest/v2", "/rest"]) {
      const res = await fetch(inst.base + path, { headers: ACADEMIC });
      expect(res.headers.get("content-type"), path).toMatch(/^text\/html/);
      expectPageHeaders(res.headers, path);
    }
    for (const path of ["/api/v4/version", "/api/v4/openapi.json", `${inst.ui}.json`, "/api/v4/no-such-route", "/-/assets/app.css", "/-/assets/common.js"]) {
      const res = await fetch(inst.base + path, { headers: { "Private-Token": inst.token } });
      expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(res.headers.get("content-security-policy"), path).toBeNull();
    }
  });

  it("every page runs under its policy in Chromium without a violation", async () => {
    const { page, violations } = browser;
    for (const { path, ready } of pages()) {
      await page.goto(inst.base + path);
      await page.locator(ready).first().waitFor();
    }
    // The settings page's scripts at work: switching backends and Connect (a fetch to the same origin).
    await page.goto(`${inst.base}/${inst.project.path_with_namespace}/-/settings/monitor`);
    await page.getByLabel("Sentry (third-party tracker)").check();
    await page.getByLabel("Sentry API URL").fill(inst.base);
    await page.getByLabel("Auth Token").fill(inst.token);
    await page.getByRole("button", { name: "Connect" }).click();
    await expect.poll(() => page.locator("#tracker-project option").count()).toBeGreaterThan(0);
    await page.setExtraHTTPHeaders(ACADEMIC);
    for (const path of ["/rest/v2", "/rest"]) {
      await page.goto(inst.base + path);
      // The index's inline style is allowed by its hash: it applied (system-ui font, 2rem margin).
      expect(await page.evaluate("getComputedStyle(document.body).marginTop")).toBe("32px");
    }
    await page.setExtraHTTPHeaders({});
    expect(violations).toEqual([]);
  });

  it("another origin cannot frame a page", async () => {
    // The framing site: 127.0.0.2, a different origin (and site) than the instance on 127.0.0.1.
    const targets = [`${inst.base}/users/sign_in`, `${inst.base}${inst.ui}`];
    const framer: Server = createServer((req, res) => {
      if (req.url === "/own") return void res.writeHead(200, { "content-type": "text/html" }).end(`<p id="own">framed fine</p>`);
      res.writeHead(200, { "content-type": "text/html" }).end(`<iframe src="/own"></iframe>${targets.map((t) => `<iframe src="${t}"></iframe>`).join("")}`);
    });
    await new Promise<void>((ok) => framer.listen(0, "127.0.0.2", () => ok()));
    const page = await browser.context.newPage();
    try {
      await page.goto(`http://127.0.0.2:${(framer.address() as AddressInfo).port}/`);
      const frames = () => page.frames().filter((f) => f !== page.mainFrame());
      await expect.poll(() => frames().length).toBe(3);
      // The control frame (same origin as the framer) renders, so the check below can see content.
      const own = frames().find((f) => f.url().endsWith("/own"))!;
      await expect.poll(() => own.locator("#own").count()).toBe(1);
      for (const target of targets) {
        const frame = await (await page.$(`iframe[src="${target}"]`))!.contentFrame();
        expect(frame!.url()).toBe("chrome-error://chromewebdata/");
        expect(await frame!.locator("#main, form").count()).toBe(0);
      }
    } finally {
      await page.close();
      framer.close();
    }
  });
});
