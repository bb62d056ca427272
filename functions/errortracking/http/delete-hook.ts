import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { notFound } from "../../platform/http/errors.js";
import { maintainedProject } from "../domain/access.js";
import { deleteHook, findHook } from "../hooks/store.js";
import { hookParams } from "./hooks.js";

/** 204, as GitLab answers; deliveries still queued for it are dropped by the hook worker. */
export const endpoint = defineEndpoint({ summary: "Delete a project hook", access: "write", params: hookParams }, async ({ c, principal, params }) => {
  const project = await maintainedProject(principal, params.id);
  const hook = await findHook(project.id, params.hook_id);
  if (!hook) throw notFound();
  await deleteHook(hook);
  return c.body(null, 204);
});
export const handler = lambda(endpoint);
