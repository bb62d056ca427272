/**
 * The operator console's pages (`/admin/…`): administrators only. Anonymous visitors sign in first;
 * anyone else gets the pages' 404, as GitLab's admin area answers a non-administrator. Each page is a
 * shell its script (`/-/assets/admin/<name>.js`) fills from the page's JSON, which the moves context
 * serves (`/admin/…json`).
 */
import type { Context } from "hono";
import type { Principal } from "../../../identity/domain/auth.js";
import { escapeHtml, page } from "../../ui/layout.js";
import { notFoundPage } from "../../ui/not-found.js";
import { pageIdentity, signInRedirect } from "../../http/session-page.js";

/** A response when the caller may not see the console (sign-in, or 404); undefined for an administrator. */
export function refusal(c: Context, principal: Principal | undefined): Response | undefined {
  if (!principal) return signInRedirect(c);
  if (!principal.user.admin) return notFoundPage(c, principal);
  return undefined;
}

const SECTIONS = [
  ["/admin/storages", "Storages"],
  ["/admin/storage_moves", "Storage moves"],
  ["/admin/storage_moves/plan", "Plan and rebalance"],
] as const;

export function consolePage(c: Context, principal: Principal, opts: { title: string; script: string; body: string; current?: string; data?: Record<string, string> }): Response {
  const nav = SECTIONS.map(([href, label]) => (href === opts.current ? `<a href="${href}" aria-current="page">${label}</a>` : `<a href="${href}">${label}</a>`)).join(" · ");
  return c.html(
    page({
      title: opts.title,
      ...pageIdentity(principal),
      script: `admin/${opts.script}`,
      ...(opts.data ? { data: opts.data } : {}),
      body: `<nav class="crumbs" aria-label="Admin area">Admin area › ${nav}</nav>
${opts.body}`,
    }),
  );
}

export { escapeHtml };
