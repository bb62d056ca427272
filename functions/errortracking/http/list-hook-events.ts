import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { notFound } from "../../platform/http/errors.js";
import { pageQuery } from "../../platform/http/params.js";
import { pageRequest, setPageHeaders } from "../../platform/http/pagination.js";
import { maintainedProject } from "../domain/access.js";
import { findHook } from "../hooks/store.js";
import { listDeliveries } from "../hooks/delivery.js";
import { deliveryEntity, hookParams } from "./hooks.js";

/** A hook's deliveries of the last 7 days, newest first: status, response code, time. */
export const endpoint = defineEndpoint(
  { summary: "List project webhook events", access: "read", params: hookParams, query: z.object({ ...pageQuery }) },
  async ({ c, principal, params, query }) => {
    const project = await maintainedProject(principal, params.id);
    const hook = await findHook(project.id, params.hook_id);
    if (!hook) throw notFound();
    const page = pageRequest(query);
    const result = await listDeliveries(hook.id, page.offset, page.perPage);
    setPageHeaders(c, page, result.hasMore, undefined, result.items.length);
    return result.items.map(deliveryEntity);
  },
);
export const handler = lambda(endpoint);
