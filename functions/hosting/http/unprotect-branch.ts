import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { forbidden, notFound } from "../../platform/http/errors.js";
import { findRule, unprotect } from "../domain/protected-ref-admin.js";
import { grants } from "../domain/protected-refs.js";
import { maintainedProject, protectedRefParams } from "./protected-ref-params.js";

/**
 * GitLab's "Unprotect repository branches" (Maintainer+, and within the rule's unprotect level: a
 * rule only administrators may unprotect answers others 403); `404 Not found` for a name that is
 * not protected. 204.
 */
export const endpoint = defineEndpoint({ summary: "Unprotect a repository branch", access: "write", params: protectedRefParams }, async ({ c, principal, params }) => {
  const { project, level } = await maintainedProject(principal, params.id);
  const rule = findRule(project, "branch", params.name);
  if (!rule) throw notFound();
  if (!grants(rule.unprotect ?? 40, { level, admin: principal.user.admin })) throw forbidden();
  await unprotect(project, "branch", rule.name);
  return c.body(null, 204);
});
export const handler = lambda(endpoint);
