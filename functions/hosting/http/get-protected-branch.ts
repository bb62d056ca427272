import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { notFound } from "../../platform/http/errors.js";
import { findRule, protectedBranchView } from "../domain/protected-ref-admin.js";
import { maintainedProject, protectedRefParams } from "./protected-ref-params.js";

/** GitLab's "Get a single protected branch or wildcard protected branch" (Maintainer+): by its exact name, else `404 Not found`. */
export const endpoint = defineEndpoint({ summary: "Get a protected branch", access: "read", params: protectedRefParams }, async ({ principal, params }) => {
  const { project } = await maintainedProject(principal, params.id);
  const rule = findRule(project, "branch", params.name);
  if (!rule) throw notFound();
  return protectedBranchView(rule);
});
export const handler = lambda(endpoint);
