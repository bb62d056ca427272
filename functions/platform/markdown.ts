/**
 * Markdown to safe HTML, for `POST /markdown` and wiki pages read with `render_html=true`: GitHub
 * Flavored Markdown (tables, task lists, fenced code, strikethrough, autolinks) by `marked`, then
 * every tag and attribute through `xss` (js-xss) against an allowlist, as GitLab's sanitization filter
 * does after its Markdown filter. Raw HTML in the text is allowed where the allowlist allows it;
 * scripts, styles, event handlers, forms, frames, SVG and any URL but http(s), mailto and relative
 * ones never survive. Both libraries carry their own budget allowance (`local/isolated/budget.ts`),
 * so only the functions that render import this module.
 */
import { Marked } from "marked";
import xssExports from "xss";
import type * as XssModule from "xss";
import { escapeHtml } from "./escape-html.js";

// xss is CommonJS: Node's ESM loader offers its exports whole as the default import only.
const xss = xssExports as unknown as typeof XssModule;

const markdown = new Marked({ gfm: true, async: false });

/** Tags kept and their attributes (URLs are checked by `safeUrl`); anything else is dropped, its text kept. */
const ALLOWED: Record<string, string[]> = {
  a: ["href", "title"],
  img: ["src", "alt", "title", "width", "height"],
  input: ["type", "checked", "disabled"],
  code: ["class"],
  th: ["align"],
  td: ["align"],
  ol: ["start"],
  details: ["open"],
  ...Object.fromEntries(
    "p br hr h1 h2 h3 h4 h5 h6 blockquote pre ul li em strong b i del s ins sup sub kbd samp var q summary dl dt dd table thead tbody tfoot tr span div abbr"
      .split(" ")
      .map((tag) => [tag, []]),
  ),
};

/**
 * An href or src: relative, or http(s) and mailto; anything else (javascript:, data:, vbscript:…) is
 * dropped. A URL has a scheme when a colon comes before its first `/`, `?` or `#`, whatever precedes
 * the colon: js-xss decodes only numeric entities, so a named one (`java&Tab;script:`, which a
 * browser reads as a tab that URL parsing removes) must not make a scheme look relative.
 */
function safeUrl(value: string): string | undefined {
  const plain = xss.friendlyAttrValue(value).replace(/[\u0000-\u0020\u007f-\u00a0]/g, "");
  const hasScheme = /^[^/?#]*:/.test(plain);
  return !hasScheme || /^(?:https?|mailto):/i.test(plain) ? xss.escapeAttrValue(value.trim()) : undefined;
}

const sanitizer = new xss.FilterXSS({
  whiteList: ALLOWED,
  stripIgnoreTag: true,
  stripIgnoreTagBody: ["script", "style", "iframe", "object", "embed", "svg", "math", "template", "noscript", "textarea", "select"],
  allowCommentTag: false,
  // Only task-list checkboxes are inputs here.
  onTag: (tag: string, html: string) => (tag === "input" && !/^<input\b[^>]*\btype\s*=\s*["']?checkbox["'\s/>]/i.test(html) ? "" : undefined),
  // An unsafe URL or class loses its attribute; other allowed attributes keep their escaped value.
  onTagAttr: (tag: string, name: string, value: string, allowed: boolean) => {
    if (!allowed) return undefined;
    if (name === "href" || name === "src") {
      const url = safeUrl(value);
      return url === undefined ? "" : `${name}="${url}"`;
    }
    if (tag === "code" && name === "class") return /^language-[\w+#.-]+$/.test(value) ? `class="${value}"` : "";
    return undefined;
  },
});

/**
 * GitLab Flavored Markdown's Markdown part, as sanitized HTML without a trailing line break (as
 * GitLab answers); GitLab's references and emoji are not resolved here.
 */
export function renderMarkdown(text: string): string {
  return sanitizer.process(markdown.parse(text) as string).trimEnd();
}

/** A wiki page's content as HTML: Markdown rendered; another format, which has no renderer here, as its escaped text. */
export const renderWikiContent = (format: string, content: string) => (format === "markdown" ? renderMarkdown(content) : `<pre>${escapeHtml(content)}</pre>`);
