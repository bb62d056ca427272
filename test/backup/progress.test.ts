/** Progress where stderr is not a terminal: plain lines, one per phase start, quarter and end. */
import { describe, it, expect } from "vitest";
import { ProgressLines } from "../../functions/backup/progress.js";

describe("plain progress lines", () => {
  it("writes a phase's start, each quarter reached and its end, without redraw characters", () => {
    const lines: string[] = [];
    const p = new ProgressLines((line) => lines.push(line), 0);
    p.phase("Copying repositories", 8);
    for (let i = 1; i <= 8; i++) p.update(i);
    p.phase("Writing table", 0);
    p.add(3);
    p.end();
    expect(lines[0]).toBe("Copying repositories (8)…");
    expect(lines.slice(1, 4)).toEqual(["Copying repositories: 25% (2/8)", "Copying repositories: 50% (4/8)", "Copying repositories: 75% (6/8)"]);
    expect(lines[4]).toMatch(/^Copying repositories: done, 8 in \d+\.\d s$/);
    expect(lines[5]).toBe("Writing table…");
    expect(lines[6]).toMatch(/^Writing table: done, 3 in /);
    expect(lines).toHaveLength(7);
    expect(lines.join("")).not.toMatch(/[\r\x1b]/);
  });

  it("shows byte phases in readable units and leaves quiet spells quiet", () => {
    const lines: string[] = [];
    const p = new ProgressLines((line) => lines.push(line), 60_000);
    p.phase("Verifying archive", 4 << 20, "bytes");
    for (let i = 1; i <= 4; i++) p.update(i << 20);
    p.end();
    expect(lines[0]).toBe("Verifying archive (4.0 MiB)…");
    expect(lines).toHaveLength(2); // the quarters fell within the minimum interval
    expect(lines[1]).toMatch(/^Verifying archive: done, 4\.0 MiB in /);
  });
});
