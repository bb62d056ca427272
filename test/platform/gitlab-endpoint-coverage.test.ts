/**
 * GitLab's documented REST contract, held against the route table. `test/fixtures/gitlab-doc-endpoints.json`
 * lists every endpoint GitLab's doc/api pages name for the resources this service hosts (one docs
 * commit). Each of them is routed (`functions/routes.ts`), or listed in docs/gitlab-api.md's "GitLab endpoints not
 * served" table with the feature it needs that this service does not have at all, or still in
 * `test/fixtures/gitlab-endpoints-pending.json`. The pending list only shrinks: an endpoint in it that is
 * routed fails here until its line is deleted, and so does a listed one.
 *
 * Paths match by position, not by parameter name (GitLab's `:user_id` is the table's `:user_id` or
 * `:id`). A literal segment matches only a literal: `/snippets/public` served by the `/snippets/:id`
 * route is the bug, not the endpoint. A `HEAD` needs its own `HEAD` route, as API Gateway routes it.
 */
import { describe, it, expect } from "vitest";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import * as z from "zod/mini";
import { routes } from "../../functions/routes.js";

const root = resolve(import.meta.dirname, "../..");
const read = (file: string) => readFileSync(resolve(root, file), "utf8");

/** The features whose endpoints may stay unserved: this service has none of them. */
const NOT_SERVED_REASONS = ["merge requests", "issues", "CI", "SSH transport and keys", "LDAP/SAML", "e-mail delivery", "GitLab.com billing and seats"];

const Method = z.enum(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]);
const Inventory = z.object({
  source: z.object({ commit: z.string(), version: z.string() }),
  pages: z.array(z.object({ page: z.string(), file: z.string(), commit: z.string() })),
  endpoints: z.array(z.object({ page: z.string(), section: z.string(), method: Method, path: z.string(), tier: z.string(), offering: z.string(), commit: z.string() })),
});
const Pending = z.object({ endpoints: z.array(z.object({ method: Method, path: z.string(), page: z.string() })) });

const inventory = Inventory.parse(JSON.parse(read("test/fixtures/gitlab-doc-endpoints.json")));
const pending = Pending.parse(JSON.parse(read("test/fixtures/gitlab-endpoints-pending.json"))).endpoints;

/**
 * An endpoint's shape: method and path under `/api/v4`, every parameter `:`. GitLab's
 * `archive[.format]` (an optional extension on a literal) is served by one parameter segment.
 */
const shapeOf = (method: string, path: string) => `${method} ${path.replace(/\/[a-z_]+\[\.[a-z]+\]$/, "/:").replace(/:[A-Za-z0-9_]+/g, ":")}`;
const docShape = (e: { method: string; path: string }) => shapeOf(e.method, `/api/v4${e.path}`);
const routedShapes = new Set(routes.map((r) => shapeOf(r.method, r.path)));
const isRouted = (e: { method: string; path: string }) => routedShapes.has(docShape(e));
const name = (e: { method: string; path: string; page: string }) => `${e.method} ${e.path} (${e.page})`;

/** The rows of docs/gitlab-api.md's "GitLab endpoints not served" table: method, `path`, doc page, reason. */
function notServedTable() {
  const section = read("docs/gitlab-api.md").split("\n## GitLab endpoints not served\n")[1]?.split("\n## ")[0];
  if (!section) throw new Error('docs/gitlab-api.md has no "## GitLab endpoints not served" section');
  const rows = section.split("\n").filter((line) => /^\| [A-Z]+ \|/.test(line) && !line.startsWith("| Method |"));
  return rows.map((line) => {
    const [method = "", path = "", page = "", reason = ""] = line.split("|").slice(1, -1).map((cell) => cell.trim());
    return { method, path: path.replace(/^`|`$/g, ""), page, reason, line };
  });
}
const listed = notServedTable();
/** `CI` or `CI (what of it the endpoint needs)`. */
const reasonOf = (cell: string) => /^(.*?)(?: \(.+\))?$/.exec(cell)![1]!;

describe("GitLab's documented endpoints against the route table", () => {
  it("come from one docs commit, each page and endpoint once", () => {
    expect(inventory.pages.filter((p) => p.commit !== inventory.source.commit || p.file !== `doc/api/${p.page}.md`)).toEqual([]);
    const pages = new Set(inventory.pages.map((p) => p.page));
    expect(pages.size).toBe(inventory.pages.length);
    expect(inventory.endpoints.filter((e) => e.commit !== inventory.source.commit || !pages.has(e.page)).map(name)).toEqual([]);
    const shapes = inventory.endpoints.map(docShape);
    expect(shapes.filter((s, i) => shapes.indexOf(s) !== i)).toEqual([]);
    expect(inventory.pages.filter((p) => !inventory.endpoints.some((e) => e.page === p.page)).map((p) => p.page)).toEqual([]);
  });

  it("each documented endpoint is routed, listed as not served, or pending", () => {
    const accounted = new Set([...listed, ...pending].map(docShape));
    expect(inventory.endpoints.filter((e) => !isRouted(e) && !accounted.has(docShape(e))).map(name)).toEqual([]);
  });

  it("no endpoint listed as not served is routed", () => {
    expect(listed.filter(isRouted).map((row) => `${row.line} — routed: remove its line`)).toEqual([]);
  });

  it("no pending endpoint is routed: a route's change deletes its line from the pending list", () => {
    expect(pending.filter(isRouted).map(name)).toEqual([]);
  });

  it("an endpoint is listed as not served only for a feature this service does not have at all", () => {
    expect(listed.filter((row) => !NOT_SERVED_REASONS.includes(reasonOf(row.reason))).map((row) => row.line)).toEqual([]);
  });

  it("each listed or pending line names one documented endpoint, as its page prints it, once", () => {
    const documented = new Map(inventory.endpoints.map((e) => [`${e.method} ${e.path}`, e.page]));
    const lines = [...listed, ...pending];
    expect(lines.filter((l) => documented.get(`${l.method} ${l.path}`) !== l.page).map(name)).toEqual([]);
    const shapes = lines.map(docShape);
    expect(lines.filter((_, i) => shapes.indexOf(shapes[i]!) !== i).map(name)).toEqual([]);
  });
});
