import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { notFound } from "../../platform/http/errors.js";
import { maintainedProject } from "../domain/access.js";
import { findHook } from "../hooks/store.js";
import { hookEntity, hookParams } from "./hooks.js";

export const endpoint = defineEndpoint({ summary: "Get a project hook", access: "read", params: hookParams }, async ({ principal, params }) => {
  const project = await maintainedProject(principal, params.id);
  const hook = await findHook(project.id, params.hook_id);
  if (!hook) throw notFound();
  return hookEntity(hook);
});
export const handler = lambda(endpoint);
