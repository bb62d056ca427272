/**
 * Headless Chromium driven by playwright-core, against an instance started in this test worker
 * (`hosted`, so integrated error tracking can be switched on). A fresh profile per launch.
 * The browser binary comes from the npm package `@sparticuz/chromium` (see chromium.ts), so
 * `npm install && npm test` needs no browser installed on the machine.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";

import { chromiumExecutable } from "../support/chromium.js";
import { call, sendWithSdk, startTracker, waitFor } from "../errortracking/thirdparty-support.js";

export const ARTIFACTS = resolve(import.meta.dirname, "../../test-artifacts");

export interface LaunchedBrowser {
  context: BrowserContext;
  page: Page;
  /** Content-Security-Policy violations Chromium reported on any page so far (directive and blocked URI). */
  violations: string[];
  close: () => Promise<void>;
}

export async function launch(): Promise<LaunchedBrowser> {
  const profile = mkdtempSync(join(tmpdir(), "forgeline-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: await chromiumExecutable(),
    headless: true,
    viewport: { width: 1366, height: 800 },
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  // Each document reports its own violations; the init script is injected by the browser, outside the pages' policy.
  const violations: string[] = [];
  await context.exposeBinding("__reportCspViolation", (_source, text: string) => void violations.push(text));
  await context.addInitScript({
    content: `document.addEventListener("securitypolicyviolation", (e) =>
      window.__reportCspViolation(e.violatedDirective + " blocked " + (e.blockedURI || "inline") + " on " + e.documentURI));`,
  });
  page.on("console", (msg) => {
    if (/Content Security Policy/i.test(msg.text())) violations.push(msg.text());
  });
  return {
    context,
    page,
    violations,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export async function signIn(page: Page, base: string, token: string, path: string) {
  await page.goto(base + path);
  await page.getByLabel("Personal access token").fill(token);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(base + path);
}

export async function screenshot(page: Page, name: string) {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, name), fullPage: true });
}

/**
 * An instance of its own (`hosted`) whose project got an exception and a message from the real
 * `@sentry/node` SDK, and a browser signed in on its error list.
 */
export async function trackerInBrowser() {
  const inst = await startTracker();
  await sendWithSdk(inst.dsn);
  await waitFor(() => call(inst.base, "GET", `${inst.ui}.json`, inst.token), (r) => r.body.errors?.length === 2);
  const browser = await launch();
  await signIn(browser.page, inst.base, inst.token, inst.ui);
  return { inst, browser, close: async () => { await browser.close(); await inst.own.stop(); } };
}
