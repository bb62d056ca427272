/**
 * Markdown rendered as GitLab renders it for `POST /markdown` and wiki pages read with
 * `render_html=true`: GitHub Flavored Markdown (tables, task lists, fenced code, strikethrough,
 * autolinks) through a maintained parser and an allowlist sanitizer. No script, event handler,
 * `javascript:`/`data:` URL or SVG survives, whether written as Markdown or as raw HTML.
 */
import { describe, it, expect, beforeAll } from "vitest";
import { api, newUser, unique } from "../support/api.js";
import { renderMarkdown } from "../../functions/platform/markdown.js";

type User = Awaited<ReturnType<typeof newUser>>;
let owner: User, stranger: User, readOnly: User;

beforeAll(async () => {
  [owner, stranger, readOnly] = await Promise.all([newUser(), newUser(), newUser({ scopes: ["read_api"] })]);
});

const render = (body: Record<string, unknown>, token = owner.token) => api("POST", "/api/v4/markdown", { token, body });

/** Payloads that must come out inert, with what must not appear in the HTML afterwards. */
const XSS: Array<[string, RegExp]> = [
  ["<script>alert(1)</script>", /<script|alert\(1\)/i],
  ["<img src=x onerror=alert(1)>", /onerror/i],
  ["<IMG SRC=x OnError=alert(1)>", /onerror/i],
  ["[click](javascript:alert(1))", /javascript:/i],
  ["[click](JaVaScRiPt:alert(1))", /javascript:/i],
  ['<a href="&#106;avascript:alert(1)">x</a>', /href/i],
  ['<a href=" javascript:alert(1)">x</a>', /href/i],
  ["[x](java&Tab;script:alert(1))", /href/i],
  ['<a href="&Tab;javascript:alert(1)">x</a>', /href/i],
  ['<a href="java&NewLine;script&colon;alert(1)">x</a>', /href/i],
  ['<a href="jav&#x09;ascript:alert(1)">x</a>', /href/i],
  ["[x](vbscript:msgbox(1))", /vbscript/i],
  ["![p](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)", /data:/i],
  ["[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)", /data:/i],
  ["<svg onload=alert(1)><circle/></svg>", /<svg|onload/i],
  ['<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>', /<svg|javascript:/i],
  ["<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>", /onerror|<style|<math/i],
  ['<div onclick="alert(1)" style="background:url(javascript:alert(1))">hi</div>', /onclick|style|javascript/i],
  ["<iframe src=\"https://evil.test\"></iframe>", /<iframe/i],
  ["<object data=\"x.swf\"></object><embed src=\"x.swf\">", /<object|<embed/i],
  ['<form action="https://evil.test"><input type="text" name="q"><button>go</button></form>', /<form|<button|type="text"/i],
  ["<style>body{display:none}</style>", /<style|display:none/i],
  ['<a href="https://ok.test" onmouseover="alert(1)">ok</a>', /onmouseover/i],
  ["<details open ontoggle=alert(1)><summary>s</summary></details>", /ontoggle/i],
  ["<!-- <img src=x onerror=alert(1)> -->", /<!--|onerror/i],
];

describe("the renderer", () => {
  it("renders GitHub Flavored Markdown: headings, emphasis, strikethrough, tables, task lists, fenced code, autolinks", () => {
    expect(renderMarkdown("# Title\n\nSome **bold** and _italic_ and ~~gone~~.")).toBe("<h1>Title</h1>\n<p>Some <strong>bold</strong> and <em>italic</em> and <del>gone</del>.</p>");
    expect(renderMarkdown("| a | b |\n|:--|--:|\n| 1 | 2 |")).toBe(
      '<table>\n<thead>\n<tr>\n<th align="left">a</th>\n<th align="right">b</th>\n</tr>\n</thead>\n<tbody><tr>\n<td align="left">1</td>\n<td align="right">2</td>\n</tr>\n</tbody></table>',
    );
    expect(renderMarkdown("- [x] done\n- [ ] todo")).toBe('<ul>\n<li><input checked disabled type="checkbox"> done</li>\n<li><input disabled type="checkbox"> todo</li>\n</ul>');
    expect(renderMarkdown("```ruby\nputs '<b>'\n```")).toBe('<pre><code class="language-ruby">puts &#39;&lt;b&gt;&#39;\n</code></pre>');
    expect(renderMarkdown("see www.example.com and https://example.com/a?b=1")).toBe(
      '<p>see <a href="http://www.example.com">www.example.com</a> and <a href="https://example.com/a?b=1">https://example.com/a?b=1</a></p>',
    );
    expect(renderMarkdown("[page](deploy) [top](/help) [mail](mailto:a@example.com) ![logo](img/logo.png)")).toBe(
      '<p><a href="deploy">page</a> <a href="/help">top</a> <a href="mailto:a@example.com">mail</a> <img src="img/logo.png" alt="logo"></p>',
    );
    expect(renderMarkdown("Hello world!")).toBe("<p>Hello world!</p>");
  });

  it("keeps the harmless HTML GitLab allows in Markdown", () => {
    expect(renderMarkdown("<details><summary>More</summary>\n\nHidden *text*\n\n</details>")).toBe("<details><summary>More</summary><p>Hidden <em>text</em></p>\n</details>");
    expect(renderMarkdown("Press <kbd>Ctrl</kbd>+<kbd>C</kbd>, H<sub>2</sub>O, x<sup>2</sup>")).toBe("<p>Press <kbd>Ctrl</kbd>+<kbd>C</kbd>, H<sub>2</sub>O, x<sup>2</sup></p>");
  });

  it.each(XSS)("leaves nothing executable of %s", (payload, forbidden) => {
    const html = renderMarkdown(`before\n\n${payload}\n\nafter`);
    expect(html).not.toMatch(forbidden);
    expect(html).not.toMatch(/\son[a-z]+\s*=/i);
    expect(html).toContain("before");
    expect(html).toContain("after");
  });

  it("escapes code instead of running it, in code spans and blocks", () => {
    expect(renderMarkdown("`<script>alert(1)</script>`")).toBe("<p><code>&lt;script&gt;alert(1)&lt;/script&gt;</code></p>");
    expect(renderMarkdown("    <img src=x onerror=alert(1)>")).toBe("<pre><code>&lt;img src=x onerror=alert(1)&gt;\n</code></pre>");
  });
});

describe("POST /markdown", () => {
  it("answers GitLab's 201 {html}, with gfm or not, for any signed-in caller (read_api is enough)", async () => {
    expect(await render({ text: "Hello **world**!" })).toMatchObject({ status: 201, body: { html: "<p>Hello <strong>world</strong>!</p>" } });
    expect(await render({ text: "| a |\n|---|\n| 1 |", gfm: true })).toMatchObject({ status: 201, body: { html: expect.stringContaining("<td>1</td>") } });
    expect(await render({ text: "foo" }, readOnly.token)).toMatchObject({ status: 201, body: { html: "<p>foo</p>" } });
    const form = await api("POST", "/api/v4/markdown", { token: owner.token, raw: "text=%3Cscript%3Ealert(1)%3C%2Fscript%3Eok&gfm=true", headers: { "Content-Type": "application/x-www-form-urlencoded" } });
    expect(form).toMatchObject({ status: 201, body: { html: "ok" } });
  });

  it("takes a project as context: one the caller cannot see is 404 Project Not Found", async () => {
    const project = await api("POST", "/api/v4/projects", { token: owner.token, body: { name: unique("md") } });
    expect(await render({ text: "foo", gfm: true, project: project.body.path_with_namespace })).toMatchObject({ status: 201, body: { html: "<p>foo</p>" } });
    expect(await render({ text: "foo", project: project.body.path_with_namespace }, stranger.token)).toMatchObject({ status: 404, body: { message: "404 Project Not Found" } });
    expect(await render({ text: "foo", project: "no/such-project" })).toMatchObject({ status: 404, body: { message: "404 Project Not Found" } });
  });

  it("refuses anonymous callers and missing or mistyped text in GitLab's words", async () => {
    expect(await api("POST", "/api/v4/markdown", { body: { text: "x" } })).toMatchObject({ status: 401, body: { message: "401 Unauthorized" } });
    expect(await render({})).toMatchObject({ status: 400, body: { error: "text is missing" } });
    expect(await render({ text: ["x"] })).toMatchObject({ status: 400, body: { error: "text is invalid" } });
    expect(await render({ text: "x", gfm: "sometimes" })).toMatchObject({ status: 400, body: { error: "gfm is invalid" } });
  });

  it("sanitizes what it renders", async () => {
    for (const [payload, forbidden] of XSS) {
      const res = await render({ text: payload, gfm: true });
      expect(res.status).toBe(201);
      expect(res.body.html, payload).not.toMatch(forbidden);
    }
  });
});

describe("wiki pages with render_html=true", () => {
  it("answers a Markdown page's content rendered and sanitized, for project and group wikis", async () => {
    const project = await api("POST", "/api/v4/projects", { token: owner.token, body: { name: unique("wiki") } });
    const group = await api("POST", "/api/v4/groups", { token: owner.token, body: { name: "md", path: unique("md") } });
    const content = "# Deploy\n\n- [x] build\n- [ ] ship\n\n<img src=x onerror=alert(1)>[bad](javascript:alert(1))";
    for (const base of [`/api/v4/projects/${project.body.id}/wikis`, `/api/v4/groups/${group.body.id}/wikis`]) {
      expect((await api("POST", base, { token: owner.token, body: { title: "Deploy", content } })).status).toBe(201);
      const raw = await api("GET", `${base}/Deploy`, { token: owner.token });
      expect(raw.body.content).toBe(content);
      const rendered = await api("GET", `${base}/Deploy?render_html=true`, { token: owner.token });
      expect(rendered).toMatchObject({ status: 200, body: { slug: "Deploy", title: "Deploy", format: "markdown", encoding: "UTF-8" } });
      expect(rendered.body.content).toContain("<h1>Deploy</h1>");
      expect(rendered.body.content).toContain('<li><input checked disabled type="checkbox"> build</li>');
      expect(rendered.body.content).not.toMatch(/onerror|javascript:/);
      // A page in a format with no renderer here comes back as its escaped text.
      expect((await api("POST", base, { token: owner.token, body: { title: "Notes", content: "= Notes <b>&", format: "asciidoc" } })).status).toBe(201);
      expect((await api("GET", `${base}/Notes?render_html=1`, { token: owner.token })).body.content).toBe("<pre>= Notes &lt;b&gt;&amp;</pre>");
    }
  });
});
