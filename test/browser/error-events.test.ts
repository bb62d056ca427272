/**
 * #17 in a real browser: an error's events listed on its detail page, one event opened (user, tags,
 * contexts, stack trace), and the list filtered by release and environment — events sent by the real
 * `@sentry/node` SDK, everything under the pages' Content-Security-Policy.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { screenshot, trackerInBrowser } from "./support.js";

let inst: Awaited<ReturnType<typeof trackerInBrowser>>["inst"];
let browser: Awaited<ReturnType<typeof trackerInBrowser>>["browser"];
let close: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ inst, browser, close } = await trackerInBrowser());
});
afterAll(async () => close?.());

describe("events and filters in the browser", () => {
  it("the detail page lists the error's events; an event page shows who, where and the stack trace", async () => {
    const { page } = browser;
    const pageErrors: string[] = [];
    page.on("pageerror", (e) => pageErrors.push(e.message));
    await page.getByRole("link", { name: "TypeError: e2e node exception" }).click();
    await page.waitForURL(/\/details$/);
    const events = page.locator("#event-rows tr");
    await expect.poll(() => events.allInnerTexts()).toEqual([expect.stringMatching(/e2e@1\.0\.0\s+test\s+id:42/)]);
    await screenshot(page, "error-events.png");

    await events.first().getByRole("link").click();
    await page.waitForURL(/\/events\/[0-9a-f]{32}$/);
    await expect.poll(() => page.locator("#title").innerText()).toBe("TypeError: e2e node exception");
    expect(await page.locator("#user").innerText()).toMatch(/E-mail\s+alice@example\.com/);
    expect(await page.locator("#event-tags").innerText()).toMatch(/release\s+e2e@1\.0\.0/);
    expect(await page.locator("#summary").innerText()).toMatch(/Environment\s+test/);
    await expect.poll(() => page.locator("#contexts").innerText()).toMatch(/runtime[\s\S]*name\s+node/);
    const appFrame = page.locator(".frame.in-app", { hasText: "sdk-app.mjs" }).first();
    await expect.poll(() => appFrame.locator(".line.hit").innerText()).toContain('throw new TypeError("e2e node exception")');
    await screenshot(page, "error-event.png");
    expect(pageErrors).toEqual([]);
    expect(browser.violations).toEqual([]);
  });

  it("the list filters by release and by environment", async () => {
    const { page } = browser;
    await page.goto(inst.base + inst.ui);
    const rows = page.locator("#rows tr");
    await expect.poll(() => rows.count()).toBe(2);
    await page.getByLabel("Release").fill("e2e@1.0.0");
    await page.getByLabel("Environment").fill("test");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect.poll(() => page.url()).toMatch(/release=e2e%401\.0\.0&environment=test/);
    await expect.poll(() => rows.count()).toBe(2);
    await page.getByLabel("Environment").fill("production");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect.poll(() => rows.allInnerTexts()).toEqual([expect.stringContaining("No unresolved errors.")]);
    await screenshot(page, "error-list-filtered.png");
    expect(browser.violations).toEqual([]);
  });
});
