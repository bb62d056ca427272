/**
 * The one HTML escaping (`functions/platform/escape-html.ts`), used by user status `message_html`,
 * wiki pages without a renderer and the server-rendered pages.
 */
import { describe, it, expect } from "vitest";
import { escapeHtml } from "../../functions/platform/escape-html.js";
import { renderWikiContent } from "../../functions/platform/markdown.js";

describe("escapeHtml", () => {
  it("escapes the five characters HTML gives meaning, and shows no value as nothing", () => {
    expect(escapeHtml(`Fish & <chips> "quoted" 'single'`)).toBe("Fish &amp; &lt;chips&gt; &quot;quoted&quot; &#39;single&#39;");
    expect(escapeHtml("&amp;")).toBe("&amp;amp;");
    expect(escapeHtml(undefined)).toBe("");
    expect(escapeHtml(null)).toBe("");
    expect(escapeHtml(42)).toBe("42");
  });

  it("is what a wiki page in a format without a renderer shows, quotes included", () => {
    expect(renderWikiContent("rdoc", `= Title "<b>" & 'x'`)).toBe("<pre>= Title &quot;&lt;b&gt;&quot; &amp; &#39;x&#39;</pre>");
  });
});
