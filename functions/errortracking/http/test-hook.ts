import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { ApiError, notFound, paramError } from "../../platform/http/errors.js";
import { idOrPath, positiveInt } from "../../platform/http/params.js";
import { maintainedProject } from "../domain/access.js";
import { listErrors } from "../domain/read.js";
import { latestEvent } from "../domain/errors.js";
import { findHook } from "../hooks/store.js";
import { testDelivery } from "../hooks/delivery.js";

/**
 * GitLab's "Trigger a test project webhook", for the one trigger this service fires: sent now (not
 * queued), with the project's most recently seen unresolved error and its latest event, or a payload
 * without an error when there is none. 201 when the receiver answered 2xx, else 422 saying what it
 * answered; either way the attempt is in the hook's recent deliveries.
 */
export const endpoint = defineEndpoint(
  {
    summary: "Trigger a test project hook",
    access: "write",
    params: z.object({ id: idOrPath(), hook_id: positiveInt(), trigger: z.string().check(z.maxLength(64)) }),
  },
  async ({ c, principal, params }) => {
    const project = await maintainedProject(principal, params.id);
    const hook = await findHook(project.id, params.hook_id);
    if (!hook) throw notFound();
    // Judged after access, as Grape's `values:` check would be to a caller who may see the hook.
    if (params.trigger !== "error_tracking_events") throw paramError("trigger does not have a valid value");
    const [error] = (await listErrors({ projectId: project.id, status: "unresolved", sort: "last_seen", limit: 1 })).errors;
    const event = error ? await latestEvent(project.id, error.errorId) : undefined;
    const result = await testDelivery(hook, project, { error, eventId: event?.eventId, event: event ? { occurredAt: event.occurredAt, receivedAt: event.receivedAt } : undefined });
    if (!result.ok) throw new ApiError(422, { message: `Hook execution failed: ${result.status}` });
    return c.json({ message: "201 Created" }, 201);
  },
);
export const handler = lambda(endpoint);
