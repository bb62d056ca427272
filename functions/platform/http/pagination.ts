/**
 * GitLab offset pagination: `page` (default 1), `per_page` (default 20, max 100) and the
 * `X-Page`/`X-Per-Page`/`X-Next-Page`/`X-Prev-Page`/`Link` headers with absolute URLs.
 * `X-Total`/`X-Total-Pages` are sent when the caller knows the total without scanning, and on the
 * last page, which tells it (`onPage`: the items it holds): an empty list's first page is `X-Total: 0`.
 */
import type { Context } from "hono";

export interface PageRequest {
  page: number;
  perPage: number;
  offset: number;
}

export function pageRequest(query: { page?: number; per_page?: number }): PageRequest {
  const page = Math.max(1, query.page ?? 1);
  const perPage = Math.min(100, Math.max(1, query.per_page ?? 20));
  return { page, perPage, offset: (page - 1) * perPage };
}

export function publicUrl(c: Context): URL {
  const url = new URL(c.req.url);
  const proto = c.req.header("x-forwarded-proto");
  const host = c.req.header("x-forwarded-host") ?? c.req.header("host");
  if (proto) url.protocol = proto + ":";
  if (host) url.host = host;
  return url;
}

export function setPageHeaders(c: Context, page: PageRequest, hasNext: boolean, total?: number, onPage?: number): void {
  // A page past the end is empty too: only a last page with items, or the first, tells the total.
  if (total === undefined && onPage !== undefined && !hasNext && (onPage > 0 || page.page === 1)) total = page.offset + onPage;
  const url = publicUrl(c);
  const link = (p: number, rel: string) => {
    const u = new URL(url);
    u.searchParams.set("page", String(p));
    u.searchParams.set("per_page", String(page.perPage));
    return `<${u.toString()}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (page.page > 1) links.push(link(page.page - 1, "prev"));
  if (hasNext) links.push(link(page.page + 1, "next"));
  links.push(link(1, "first"));
  c.header("X-Page", String(page.page));
  c.header("X-Per-Page", String(page.perPage));
  c.header("X-Next-Page", hasNext ? String(page.page + 1) : "");
  c.header("X-Prev-Page", page.page > 1 ? String(page.page - 1) : "");
  if (total !== undefined) {
    const pages = Math.max(1, Math.ceil(total / page.perPage));
    c.header("X-Total", String(total));
    c.header("X-Total-Pages", String(pages));
    links.push(link(pages, "last"));
  }
  c.header("Link", links.join(", "));
}

/** The page of a list read whole (a bounded set), with the headers and its total. */
export function slicePage<T>(c: Context, page: PageRequest, items: T[]): T[] {
  setPageHeaders(c, page, items.length > page.offset + page.perPage, items.length);
  return items.slice(page.offset, page.offset + page.perPage);
}

/**
 * GitLab's keyset pagination answer: only `Link: <…>; rel="next"`, whose URL is this request's with
 * the cursor parameters replaced (no totals, no page numbers); none on the last page.
 */
export function setKeysetLink(c: Context, next: Record<string, string> | undefined, drop: readonly string[] = []): void {
  if (!next) return;
  const url = publicUrl(c);
  url.searchParams.delete("page");
  for (const name of drop) url.searchParams.delete(name);
  for (const [name, value] of Object.entries(next)) url.searchParams.set(name, value);
  c.header("Link", `<${url.toString()}>; rel="next"`);
}
