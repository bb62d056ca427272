/**
 * GitLab's `PUT`/`DELETE /projects/:id/hooks/:hook_id/custom_headers/:key` and `…/url_variables/:key`
 * (the project's Maintainers, as every hook route): 204 on success; a key or value GitLab's
 * validation refuses is its 422 `Illegal key or value`; deleting an absent entry is
 * `404 Custom header Not Found` / `404 URL variable Not Found`. Values are never shown back.
 */
import * as z from "zod/mini";
import { defineEndpoint, type Endpoint } from "../../platform/http/endpoint.js";
import { notFound } from "../../platform/http/errors.js";
import { idOrPath, positiveInt } from "../../platform/http/params.js";
import { maintainedProject } from "../domain/access.js";
import { findHook } from "../hooks/store.js";
import { changeExtra, illegal, validKey, validValue, type Extra } from "../hooks/hook-extras.js";

const params = z.object({ id: idOrPath(), hook_id: positiveInt(), key: z.string().check(z.minLength(1), z.maxLength(1024)) });
const NAMES: Record<Extra, string> = { customHeaders: "Custom header", urlVariables: "URL variable" };
const SUMMARIES: Record<Extra, [string, string]> = { customHeaders: ["Set a custom header", "Delete a custom header"], urlVariables: ["Set a URL variable", "Delete a URL variable"] };

async function hookOf(principal: Parameters<typeof maintainedProject>[0], id: string, hookId: number) {
  const project = await maintainedProject(principal, id);
  const hook = await findHook(project.id, hookId);
  if (!hook) throw notFound();
  return hook;
}

export const setExtra = (extra: Extra): Endpoint =>
  defineEndpoint({ summary: SUMMARIES[extra][0], access: "write", params, body: z.object({ value: z.string().check(z.maxLength(4096)) }) }, async ({ c, principal, params, body }) => {
    const hook = await hookOf(principal, params.id, params.hook_id);
    if (!validKey(extra, params.key) || !validValue(body.value)) throw illegal();
    await changeExtra(hook, extra, params.key, body.value);
    return c.body(null, 204);
  });

export const deleteExtra = (extra: Extra): Endpoint =>
  defineEndpoint({ summary: SUMMARIES[extra][1], access: "write", params }, async ({ c, principal, params }) => {
    const hook = await hookOf(principal, params.id, params.hook_id);
    if (!(await changeExtra(hook, extra, params.key, undefined))) throw notFound(NAMES[extra]);
    return c.body(null, 204);
  });
