import { describe, it, expect } from "vitest";
import { baseUrl } from "../support/api.js";

describe("/favicon.ico", () => {
  it("answers an icon, so a page load does not log a 404", async () => {
    const res = await fetch(`${baseUrl()}/favicon.ico`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/x-icon");
    const bytes = Buffer.from(await res.arrayBuffer());
    // ICONDIR: reserved 0, type 1 (icon), one image; the image is a PNG.
    expect([bytes.readUInt16LE(0), bytes.readUInt16LE(2), bytes.readUInt16LE(4)]).toEqual([0, 1, 1]);
    expect(bytes.subarray(bytes.readUInt32LE(18), bytes.readUInt32LE(18) + 4).toString("latin1")).toBe("\x89PNG");
  });
});
