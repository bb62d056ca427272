/** The pages' 404: the same page whether the address is wrong or the caller may not see it. */
import type { Context } from "hono";
import type { Principal } from "../../identity/domain/auth.js";
import { page } from "./layout.js";
import { pageIdentity } from "../http/session-page.js";

export function notFoundPage(c: Context, principal: Principal): Response {
  return c.html(page({ title: "Not found", ...pageIdentity(principal), body: `<h1>404: Page not found</h1><p>Make sure the address is correct and the page has not moved, or that you have access to it.</p>` }), 404);
}
