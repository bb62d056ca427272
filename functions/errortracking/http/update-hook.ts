import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { notFound } from "../../platform/http/errors.js";
import { baseUrl } from "../../platform/http/urls.js";
import { maintainedProject } from "../domain/access.js";
import { findHook, updateHook } from "../hooks/store.js";
import { changeOf, hookBody, hookEntity, hookParams } from "./hooks.js";

/** Changes only the attributes given; the token stays unless `token` is sent ("" removes it). */
export const endpoint = defineEndpoint({ summary: "Edit a project hook", access: "write", params: hookParams, body: hookBody }, async ({ c, principal, params, body }) => {
  const project = await maintainedProject(principal, params.id);
  const hook = await findHook(project.id, params.hook_id);
  if (!hook) throw notFound();
  return hookEntity(await updateHook(hook, { ...(await changeOf(body)), origin: baseUrl(c) }));
});
export const handler = lambda(endpoint);
