/**
 * The activity charts' renderer on its own: the very module the pages load (`/-/assets/bar-chart.js`),
 * imported here from its source. Geometry, labels, accessible text, zero and missing data, escaping.
 */
import { describe, it, expect } from "vitest";
import { BAR_CHART_JS } from "../../functions/web/assets/bar-chart-js.js";

type Buckets = Array<[number, number]>;
const { barChart } = (await import(`data:text/javascript,${encodeURIComponent(BAR_CHART_JS)}`)) as {
  barChart: (buckets: Buckets, opts?: Record<string, string>) => string;
};

const HOUR = 3600;
const DAY = 86_400;
const start = Date.UTC(2026, 10, 26, 0, 0) / 1000; // 2026-11-26T00:00Z
const hours = (counts: number[]): Buckets => counts.map((n, i) => [start + i * HOUR, n]);
const days = (counts: number[]): Buckets => counts.map((n, i) => [start - (counts.length - 1 - i) * DAY, n]);

const bars = (svg: string) =>
  [...svg.matchAll(/<rect class="bar" data-count="(\d+)" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"/g)].map((m) => ({
    count: Number(m[1]), x: Number(m[2]), y: Number(m[3]), width: Number(m[4]), height: Number(m[5]),
  }));
const texts = (svg: string) => [...svg.matchAll(/<text [^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
const listed = (html: string) => [...html.matchAll(/<li>([^<]*): <data value="(\d+)">(\d+) events?<\/data><\/li>/g)].map((m) => [m[1], Number(m[2]), Number(m[3])]);

describe("bar chart renderer", () => {
  it("draws one bar per bucket, heights proportional to the counts, on a common baseline", () => {
    const counts = [0, 1, 2, 4, 0, 8, ...Array(18).fill(0)];
    const out = barChart(hours(counts), { id: "c1", unit: "hour", size: "large", timeZone: "UTC" });
    const drawn = bars(out);
    expect(drawn.map((b) => b.count)).toEqual(counts);
    const tallest = Math.max(...drawn.map((b) => b.height));
    expect(tallest).toBeGreaterThan(100);
    for (const b of drawn) expect(b.height).toBeCloseTo((tallest * b.count) / 8, 1);
    // Every bar stands on the same baseline, left to right in time order, none overlapping.
    const baseline = drawn[0]!.y + drawn[0]!.height;
    for (const b of drawn) expect(b.y + b.height).toBeCloseTo(baseline, 1);
    drawn.slice(1).forEach((b, i) => expect(b.x).toBeGreaterThanOrEqual(drawn[i]!.x + drawn[i]!.width));
    // Outlined when drawn, so a bar does not depend on its fill colour to be seen.
    expect(out).toMatch(/data-count="8"[^>]*stroke="#123a75" stroke-width="1"/);
  });

  it("labels the axes: 0 and the top of the scale, the time every 6 hours or 7 days ending with the newest bucket", () => {
    const hourly = barChart(hours([3, ...Array(23).fill(0)]), { id: "h", unit: "hour", size: "large", timeZone: "UTC" });
    expect(texts(hourly)).toEqual(["0", "3", "05:00", "11:00", "17:00", "23:00"]);
    const daily = barChart(days([...Array(29).fill(1), 2]), { id: "d", unit: "day", size: "large", timeZone: "UTC" });
    expect(texts(daily)).toEqual(["0", "2", "Oct 29", "Nov 5", "Nov 12", "Nov 19", "Nov 26"]);
    // The small size (a row of the errors table) has no text: its summary and hidden list carry the numbers.
    expect(texts(barChart(hours([1, 2]), { id: "s", size: "small", timeZone: "UTC" }))).toEqual([]);
  });

  it("gives screen readers a name, a summary and every bucket's count in a hidden list", () => {
    const counts = [0, 0, 5, 1, ...Array(20).fill(0)];
    const out = barChart(hours(counts), { id: "e-7", unit: "hour", size: "small", timeZone: "UTC" });
    expect(out).toContain('role="img" aria-labelledby="e-7-title" aria-describedby="e-7-desc"');
    expect(out).toContain('<title id="e-7-title">Events per hour, last 24 hours</title>');
    expect(out).toContain(
      '<desc id="e-7-desc">6 events in the last 24 hours; the busiest hour was Nov 26, 02:00 with 5 events. From Nov 26, 00:00 to Nov 26, 23:00.</desc>',
    );
    expect(out).toContain('<ul class="visually-hidden chart-data" aria-label="Events per hour, last 24 hours">');
    const rows = listed(out);
    expect(rows).toHaveLength(24);
    expect(rows.slice(0, 4)).toEqual([["Nov 26, 00:00", 0, 0], ["Nov 26, 01:00", 0, 0], ["Nov 26, 02:00", 5, 5], ["Nov 26, 03:00", 1, 1]]);
    expect(rows.map(([, n]) => n)).toEqual(counts);
    expect(out).toContain("<li>Nov 26, 03:00: <data value=\"1\">1 event</data></li>");
    // Each bar also names its bucket (a tooltip on hover).
    expect(out).toContain("<title>Nov 26, 02:00: 5 events</title>");
    const daily = barChart(days([...Array(29).fill(0), 1]), { id: "d", unit: "day", title: "Events per day of TypeError: boom", timeZone: "UTC" });
    expect(daily).toContain(">Events per day of TypeError: boom</title>");
    expect(daily).toContain("1 event in the last 30 days; the busiest day was Nov 26, 2026 with 1 event. From Oct 28, 2026 to Nov 26, 2026.");
    expect(listed(daily).at(-1)).toEqual(["Nov 26, 2026", 1, 1]);
  });

  it("labels hours in the reader's time zone and days, which are UTC buckets, in UTC", () => {
    const hourly = barChart(hours([1, ...Array(23).fill(0)]), { id: "h", unit: "hour", timeZone: "America/New_York" });
    expect(texts(hourly).slice(2)).toEqual(["00:00", "06:00", "12:00", "18:00"]); // 05:00 UTC is midnight in New York
    const daily = barChart(days([...Array(29).fill(0), 1]), { id: "d", unit: "day", timeZone: "America/New_York" });
    expect(texts(daily).at(-1)).toBe("Nov 26");
    expect(daily).toContain("the busiest day was Nov 26, 2026");
  });

  it("with no events: flat bars, a 'No events' label and a summary saying 0; with no buckets: says so", () => {
    const out = barChart(hours(Array(24).fill(0)), { id: "z", unit: "hour", size: "large", timeZone: "UTC" });
    expect(bars(out).map((b) => b.height)).toEqual(Array(24).fill(0));
    expect(texts(out)).toContain("No events");
    expect(out).toContain("0 events in the last 24 hours. From");
    expect(out).not.toContain("NaN");
    const none = barChart([], { id: "n", unit: "day", size: "large", timeZone: "UTC" });
    expect(bars(none)).toEqual([]);
    expect(none).toContain("No event counts for this period.");
    expect(texts(none)).toContain("No data");
  });

  it("draws per minute, what it counts named (moves), or a rate in its own words (bytes per second)", () => {
    const minute = (counts: number[]): Buckets => counts.map((n, i) => [start + i * 60, n]);
    const moves = barChart(minute([0, 2, 5, ...Array(57).fill(0)]), { id: "m", unit: "minute", size: "large", noun: "move", title: "Moves finished per minute, last hour", timeZone: "UTC" });
    expect(texts(moves)).toEqual(["0", "5", "00:09", "00:19", "00:29", "00:39", "00:49", "00:59"]);
    expect(moves).toContain("7 moves in the last 60 minutes; the busiest minute was Nov 26, 00:02 with 5 moves. From Nov 26, 00:00 to Nov 26, 00:59.");
    expect(moves).toContain('<li>Nov 26, 00:01: <data value="2">2 moves</data></li>');
    const rate = (n: number) => (n < 1024 ? `${n} B/s` : `${(n / 1024).toFixed(1)} KiB/s`);
    const bytes = barChart(minute([0, 3072, 1024, 0]), { id: "b", unit: "minute", size: "large", noun: "byte per second", empty: "Nothing copied", format: rate, timeZone: "UTC" } as never);
    expect(texts(bytes).slice(0, 2)).toEqual(["0", "3.0 KiB/s"]);
    expect(bytes).toContain("Peak 3.0 KiB/s in the minute of Nov 26, 00:01, average 1.0 KiB/s over the last 4 minutes. From Nov 26, 00:00 to Nov 26, 00:03.");
    expect(bytes).toContain('<li>Nov 26, 00:02: <data value="1024">1.0 KiB/s</data></li>');
    expect(bars(bytes).map((b) => b.count)).toEqual([0, 3072, 1024, 0]);
    // The scale's top needs more room than a count's: it stays inside the picture.
    expect(/<text x="([\d.]+)" y="[\d.]+" text-anchor="end"[^>]*>3\.0 KiB\/s</.exec(bytes)![1]).toBe("66");
    expect(texts(barChart(minute([0, 0]), { id: "e", unit: "minute", size: "large", empty: "Nothing copied", format: rate, timeZone: "UTC" } as never))).toContain("Nothing copied");
  });

  it("escapes what it is given: a title or id with markup stays text", () => {
    const out = barChart(hours([1]), { id: '"><script>x</script>', title: "<img src=x onerror=alert(1)>", timeZone: "UTC" });
    expect(out).not.toMatch(/<script|<img/);
    expect(out).toContain("&lt;img src=x onerror=alert(1)&gt;");
  });
});
