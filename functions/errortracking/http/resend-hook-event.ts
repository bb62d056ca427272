import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { ApiError, notFound } from "../../platform/http/errors.js";
import { idOrPath, positiveInt } from "../../platform/http/params.js";
import { maintainedProject } from "../domain/access.js";
import { findHook } from "../hooks/store.js";
import { findDelivery, resendDelivery } from "../hooks/delivery.js";

/**
 * GitLab's `POST /projects/:id/hooks/:hook_id/events/:hook_event_id/resend`: the logged delivery's
 * request data sent again now (not queued: the answer says how the receiver took it), through the
 * guarded outbound client, to the hook as it is now, logged as a new delivery with the first one's
 * `Idempotency-Key`. 201 with `response_status`; no answer at all (a blocked address, a timeout) is
 * GitLab's 422 `Hook execution failed`.
 */
export const endpoint = defineEndpoint(
  { summary: "Resend a project webhook event", access: "write", status: 201, params: z.object({ id: idOrPath(), hook_id: positiveInt(), hook_event_id: positiveInt() }) },
  async ({ principal, params }) => {
    const project = await maintainedProject(principal, params.id);
    const hook = await findHook(project.id, params.hook_id);
    const logged = hook && (await findDelivery(hook.id, params.hook_event_id));
    if (!hook || !logged) throw notFound();
    const result = await resendDelivery(hook, logged);
    if (!/^\d+$/.test(result.status)) throw new ApiError(422, { message: `Hook execution failed: ${result.status}` });
    return { response_status: Number(result.status) };
  },
);
export const handler = lambda(endpoint);
