/**
 * Acceptance 1 and 2 in a real browser: sign in, the error list (filter), the detail of an exception
 * the real `@sentry/node` SDK sent (stack trace), resolve it; the settings screen (integrated DSN,
 * third-party Connect against a second running instance, Monitor disabled → GitLab's message).
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { api, adminToken, baseUrl } from "../support/api.js";
import { call } from "../errortracking/thirdparty-support.js";
import { screenshot, trackerInBrowser } from "./support.js";

let inst: Awaited<ReturnType<typeof trackerInBrowser>>["inst"];
let browser: Awaited<ReturnType<typeof trackerInBrowser>>["browser"];
let close: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ inst, browser, close } = await trackerInBrowser());
});
afterAll(async () => close?.());

describe("error tracking in the browser", () => {
  it("lists, filters, shows a real stack trace and resolves", async () => {
    const { page } = browser;
    const rows = page.locator("#rows tr");
    await expect.poll(() => rows.count()).toBe(2);
    await page.getByLabel("Search").fill("message");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect.poll(() => rows.allInnerTexts()).toEqual([expect.stringContaining("e2e node message")]);
    await page.getByLabel("Search").fill("");
    await page.getByLabel("Search").press("Enter");
    await expect.poll(() => rows.count()).toBe(2);
    await screenshot(page, "error-list.png");

    await page.getByRole("link", { name: "TypeError: e2e node exception" }).click();
    await page.waitForURL(/\/details$/);
    await expect.poll(() => page.locator("#title").innerText()).toBe("TypeError: e2e node exception");
    const appFrame = page.locator(".frame.in-app", { hasText: "sdk-app.mjs" }).first();
    await expect.poll(() => appFrame.locator(".line.hit").innerText()).toContain('throw new TypeError("e2e node exception")');
    expect(await page.locator("#counters").innerText()).toMatch(/Events\s+1/);
    expect(await page.locator("#tags").innerText()).toMatch(/Environment\s+test|Release\s+e2e@1\.0\.0/);
    await screenshot(page, "error-detail.png");

    await page.getByRole("button", { name: "Resolve", exact: true }).click();
    await expect.poll(() => page.locator("#status").innerText()).toBe("resolved");
    await page.goto(inst.base + inst.ui);
    await expect.poll(() => rows.allInnerTexts()).toEqual([expect.stringContaining("e2e node message")]);
    await page.getByLabel("Status").selectOption("resolved");
    await expect.poll(() => rows.allInnerTexts()).toEqual([expect.stringContaining("e2e node exception")]);
    expect(await page.content()).not.toContain(inst.token);
    expect(browser.violations).toEqual([]); // all of it under the pages' Content-Security-Policy
  });

  it("settings: integrated save shows the DSN; Connect lists a second instance's projects; Monitor disabled fails", async () => {
    const { page } = browser;
    const other = await api("POST", "/api/v4/projects", { token: adminToken(), body: { name: "on-the-shared-instance" } });
    expect(other.status).toBe(201);
    const settings = `${inst.base}/${inst.project.path_with_namespace}/-/settings/monitor`;
    await page.goto(settings);
    await page.getByLabel("Active").check();
    await page.getByLabel("GitLab (integrated)").check();
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect.poll(() => page.locator("#dsn").inputValue()).toMatch(/^http:\/\/glet_[0-9a-f]+@127\.0\.0\.1:\d+\/api\/v4\/error_tracking\/collector\/\d+$/);

    await page.getByLabel("Sentry (third-party tracker)").check();
    await page.getByLabel("Sentry API URL").fill(baseUrl());
    await page.getByLabel("Auth Token").fill(adminToken());
    await page.getByRole("button", { name: "Connect" }).click();
    await expect.poll(() => page.locator("#tracker-project option").allInnerTexts()).toContain(`root | on-the-shared-instance`.replace("root", (await api("GET", "/api/v4/user", { token: adminToken() })).body.name));
    await screenshot(page, "settings-connect.png");

    await call(inst.base, "PUT", `/api/v4/projects/${inst.project.id}`, inst.token, { monitor_access_level: "disabled" });
    await page.goto(settings);
    await page.getByLabel("Sentry (third-party tracker)").check();
    await page.getByLabel("Sentry API URL").fill(baseUrl());
    await page.getByLabel("Auth Token").fill(adminToken());
    await page.getByRole("button", { name: "Connect" }).click();
    await expect.poll(() => page.getByRole("alert").innerText()).toBe("Connection failed. Check auth token and try again");
    expect(await page.content()).not.toContain(adminToken());
    expect(browser.violations).toEqual([]);
  });
});
