/**
 * Every relative link of the documentation resolves: the file exists, and an `#anchor` names a
 * heading of that file as GitHub renders it (its slug). External links are not followed.
 */
import { existsSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { docFiles, headings, links, readDoc, root, slugOf } from "./support.js";

describe("the documentation's links", () => {
  it("finds GitHub's anchors for headings with code, punctuation and repeats", () => {
    expect(slugOf("Academic REST interface (`/rest/v2/` = 3.22, `/rest/` = 3.16)")).toBe("academic-rest-interface-restv2--322-rest--316");
    expect(slugOf("Deliberate differences from SIU's library")).toBe("deliberate-differences-from-sius-library");
    expect(slugOf("Repository sizes and `statistics`")).toBe("repository-sizes-and-statistics");
    expect(slugOf("JavaScript on Node.js")).toBe("javascript-on-nodejs");
    expect(headings("# A\n\n## B\n\n```\n# not a heading\n```\n\n## B\n").map((h) => h.slug)).toEqual(["a", "b", "b-1"]);
  });

  for (const file of docFiles()) {
    it(`${file}: every relative link and anchor resolves`, () => {
      const broken: string[] = [];
      for (const { target, line } of links(readDoc(file))) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
        const [path, anchor] = target.split("#") as [string, string | undefined];
        const resolved = path ? normalize(join(dirname(file), decodeURIComponent(path))) : file;
        const where = `${file}:${line} → ${target}`;
        if (resolved.startsWith("..") || !existsSync(join(root, resolved))) {
          broken.push(`${where}: no such file ${relative(".", resolved)}`);
          continue;
        }
        if (anchor === undefined) continue;
        if (!resolved.endsWith(".md") || statSync(join(root, resolved)).isDirectory()) {
          broken.push(`${where}: an anchor into a file that is not Markdown`);
          continue;
        }
        const slugs = headings(readDoc(resolved)).map((h) => h.slug);
        if (!slugs.includes(anchor)) broken.push(`${where}: no heading with the anchor #${anchor}`);
      }
      expect(broken).toEqual([]);
    });
  }
});
