import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { notFound } from "../../platform/http/errors.js";
import { findRule, protectedTagView } from "../domain/protected-ref-admin.js";
import { maintainedProject, protectedRefParams } from "./protected-ref-params.js";

/** GitLab's "Get a protected tag or wildcard protected tag" (Maintainer+): by its exact name, else `404 Not found`. */
export const endpoint = defineEndpoint({ summary: "Get a protected tag", access: "read", params: protectedRefParams }, async ({ principal, params }) => {
  const { project } = await maintainedProject(principal, params.id);
  const rule = findRule(project, "tag", params.name);
  if (!rule) throw notFound();
  return protectedTagView(rule);
});
export const handler = lambda(endpoint);
