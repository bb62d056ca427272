/**
 * The activity charts in a real browser, after real events (sent to the collector as an SDK sends
 * them, at chosen times): the list's 24-hour bars per error, the detail's hourly and daily bars,
 * what screen readers get (the images' names and summaries, the hidden lists' numbers = the events
 * sent), the note when a tracker sends no series, all under the pages' Content-Security-Policy.
 * Screenshots go to test-artifacts/.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import type { Locator, Page } from "playwright-core";
import { call, startTracker, waitFor } from "../errortracking/thirdparty-support.js";
import { launch, screenshot, signIn } from "./support.js";

const HOUR = 3_600_000;
const DAY = 86_400_000;

let inst: Awaited<ReturnType<typeof startTracker>>;
let browser: Awaited<ReturnType<typeof launch>>;
const sent: Record<string, number[]> = {};

/** One event through the collector's store endpoint, authenticated by the DSN's key, as SDKs send it. */
async function sendEvent(type: string, value: string, atMs: number) {
  const dsn = new URL(inst.dsn);
  const projectId = dsn.pathname.split("/").pop();
  const res = await fetch(`${inst.base}/api/v4/error_tracking/collector/api/${projectId}/store/`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Sentry-Auth": `Sentry sentry_key=${dsn.username}, sentry_version=7, sentry_client=charts-test/1.0` },
    body: JSON.stringify({
      event_id: crypto.randomUUID().replace(/-/g, ""),
      timestamp: atMs / 1000,
      platform: "node",
      level: "error",
      exception: { values: [{ type, value, stacktrace: { frames: [{ filename: "app/charts.js", function: "render", lineno: 7, in_app: true }] } }] },
    }),
  });
  if (res.status !== 200) throw new Error(`collector answered ${res.status}: ${await res.text()}`);
  (sent[type] ??= []).push(atMs);
}

beforeAll(async () => {
  inst = await startTracker();
  const now = Date.now();
  // ChartError: 3 now, 2 three hours ago (24 hours: 5), 4 five days ago (30 days: 9). OtherError: 1 now.
  // Same instants within a group, so no group straddles an hour's end.
  for (const at of [now, now, now, now - 3 * HOUR, now - 3 * HOUR, now - 5 * DAY, now - 5 * DAY, now - 5 * DAY, now - 5 * DAY]) {
    await sendEvent("ChartError", "disk full", at);
  }
  await sendEvent("OtherError", "once", now);
  await waitFor(
    () => call(inst.base, "GET", `${inst.ui}.json`, inst.token),
    (r) => r.body.errors?.reduce((n: number, e: { count: number }) => n + e.count, 0) === 10,
  );
  browser = await launch();
  await signIn(browser.page, inst.base, inst.token, inst.ui);
});
afterAll(async () => {
  await browser?.close();
  await inst?.own.stop();
});

/** Per bucket, oldest first, the events sent in it: `count` buckets of `size` ms ending with the current one. */
function expectedCounts(times: number[], count: number, size: number): number[] {
  const last = Math.floor(Date.now() / size);
  return Array.from({ length: count }, (_, i) => times.filter((t) => Math.floor(t / size) === last - (count - 1 - i)).length);
}

/** The numbers a screen reader gets from a chart's hidden list ("Nov 26, 14:00: 3 events"), in its order. */
const listedCounts = async (chart: Locator) => (await chart.locator("ul.chart-data li").allTextContents()).map((t) => Number(/: (\d+) events?$/.exec(t)?.[1]));

/** Each drawn bar's height is its count over the largest count, times the tallest bar's height. */
async function expectProportionalBars(chart: Locator, expected: number[]) {
  const bars = chart.locator("svg rect.bar");
  const drawn = await bars.evaluateAll((rects) => rects.map((r) => [Number(r.getAttribute("data-count")), Number(r.getAttribute("height"))] as [number, number]));
  expect(drawn.map(([n]) => n)).toEqual(expected);
  const max = Math.max(...expected);
  const tallest = Math.max(...drawn.map(([, h]) => h));
  expect(tallest).toBeGreaterThan(0);
  for (const [n, h] of drawn) expect(h).toBeCloseTo((tallest * n) / max, 1);
}

async function openDetail(page: Page, title: string) {
  await page.goto(inst.base + inst.ui);
  await page.getByRole("link", { name: title }).click();
  await page.waitForURL(/\/details$/);
}

describe("error activity charts in the browser", () => {
  it("the list shows each error's last 24 hours as bars, with the numbers for screen readers", async () => {
    const { page } = browser;
    const chartOf = (title: string) => page.getByRole("img", { name: `Events per hour, last 24 hours, of ${title}` });
    await expect.poll(() => chartOf("ChartError: disk full").count()).toBe(1);
    await expect.poll(() => chartOf("OtherError: once").count()).toBe(1);
    const row = (title: string) => page.locator("#rows tr", { has: page.getByRole("link", { name: title }) });
    await expect.poll(() => listedCounts(row("ChartError: disk full"))).toEqual(expectedCounts(sent.ChartError!, 24, HOUR));
    expect((await listedCounts(row("ChartError: disk full"))).reduce((a, b) => a + b, 0)).toBe(5);
    await expect.poll(() => listedCounts(row("OtherError: once"))).toEqual(expectedCounts(sent.OtherError!, 24, HOUR));
    await expectProportionalBars(row("ChartError: disk full"), expectedCounts(sent.ChartError!, 24, HOUR));
    expect(await chartOf("ChartError: disk full").locator("desc").textContent()).toMatch(/^5 events in the last 24 hours; the busiest hour was .+ with 3 events\./);
    const box = await chartOf("ChartError: disk full").boundingBox();
    expect(box!.width).toBeGreaterThan(50);
    expect(box!.height).toBeGreaterThan(10);
    await screenshot(page, "error-list-charts.png");
    expect(browser.violations).toEqual([]);
  });

  it("the detail shows hourly bars for 24 hours and daily bars for 30 days, with axis labels and hidden lists", async () => {
    const { page } = browser;
    await openDetail(page, "ChartError: disk full");
    const hourly = page.getByRole("img", { name: "Events per hour, last 24 hours" });
    const daily = page.getByRole("img", { name: "Events per day, last 30 days" });
    await expect.poll(() => listedCounts(page.locator("#chart-24h"))).toEqual(expectedCounts(sent.ChartError!, 24, HOUR));
    await expect.poll(() => listedCounts(page.locator("#chart-30d"))).toEqual(expectedCounts(sent.ChartError!, 30, DAY));
    expect((await listedCounts(page.locator("#chart-30d"))).reduce((a, b) => a + b, 0)).toBe(9);
    await expectProportionalBars(page.locator("#chart-24h"), expectedCounts(sent.ChartError!, 24, HOUR));
    await expectProportionalBars(page.locator("#chart-30d"), expectedCounts(sent.ChartError!, 30, DAY));
    expect(await hourly.locator("desc").textContent()).toMatch(/^5 events in the last 24 hours; the busiest hour was .+ with 3 events\. From .+ to .+\.$/);
    expect(await daily.locator("desc").textContent()).toMatch(/^9 events in the last 30 days; the busiest day was .+ with \d events\. From .+ to .+\.$/);
    // Axis labels: the scale's 0 and top, and times along the bottom (not colour alone).
    const labels = await hourly.locator("text").allTextContents();
    expect(labels.slice(0, 2)).toEqual(["0", "3"]);
    expect(labels.slice(2).every((l) => /^\d\d:\d\d$/.test(l))).toBe(true);
    expect(await daily.locator("text").allTextContents()).toContain(String(Math.max(...expectedCounts(sent.ChartError!, 30, DAY))));
    // The accessibility tree: each chart an image named by its title, its counts a list.
    const tree = await page.locator("#chart-30d").ariaSnapshot();
    expect(tree).toContain('img "Events per day, last 30 days"');
    expect(tree).toMatch(/list "Events per day, last 30 days"/);
    expect(tree).toMatch(/listitem: .+: 4 events/); // five days ago
    await screenshot(page, "error-detail-charts.png");
    expect(browser.violations).toEqual([]);
  });

  it("a tracker that sends no daily series gets a note instead of a chart", async () => {
    const { page } = browser;
    // As a third-party tracker without Sentry's stats["30d"] answers: the series comes back empty.
    await page.route("**/details.json", async (route) => {
      const response = await route.fetch();
      const json = await response.json();
      json.error.frequency_30d = [];
      await route.fulfill({ response, json });
    });
    try {
      await openDetail(page, "OtherError: once");
      await expect.poll(() => page.locator("#chart-30d").textContent()).toBe("The tracker sent no counts for this period.");
      expect(await page.getByRole("img", { name: "Events per day, last 30 days" }).count()).toBe(0);
      await expect.poll(() => listedCounts(page.locator("#chart-24h"))).toEqual(expectedCounts(sent.OtherError!, 24, HOUR));
      await screenshot(page, "error-detail-no-daily-series.png");
    } finally {
      // Leave the page first, so no poll is in flight through the route when it goes.
      await page.goto("about:blank");
      await page.unrouteAll({ behavior: "wait" });
    }
    expect(browser.violations).toEqual([]);
  });
});
