/** The third-party backend's mapping of a tracker's series: what the charts draw, or nothing to draw. */
import { describe, it, expect } from "vitest";
import { detailedEntity, errorEntity } from "../../functions/errortracking/thirdparty/mapping.js";

const issue = { id: "7", title: "E: x", count: "3", status: "unresolved" };

describe("tracker series for the charts", () => {
  it("passes Sentry's stats['24h'] and stats['30d'] through as frequency and frequency_30d", () => {
    const hourly = [[1764115200, 2], [1764118800, 1]];
    const daily = [[1764028800, 0], [1764115200, 3]];
    expect(detailedEntity({ ...issue, stats: { "24h": hourly, "30d": daily } }, null)).toMatchObject({ frequency: hourly, frequency_30d: daily });
    expect(errorEntity({ ...issue, stats: { "24h": hourly } }).frequency).toEqual(hourly);
  });

  it("gives empty series when the tracker sends none, which the pages show as a note, not as zero bars", () => {
    expect(detailedEntity(issue, null)).toMatchObject({ frequency: [], frequency_30d: [] });
    expect(detailedEntity({ ...issue, stats: { "24h": "nonsense", "30d": null } }, null)).toMatchObject({ frequency: [], frequency_30d: [] });
  });
});
