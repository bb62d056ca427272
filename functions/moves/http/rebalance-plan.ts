/**
 * `GET /repository_storages/rebalance_plan` (admin, not GitLab's): which repositories to move where so
 * that each storage's share of the bytes matches `repository_storages_weighted` within `tolerance`
 * percentage points (default 5), smallest repositories first. It only plans: `npm run moves --
 * rebalance` schedules each planned move through the per-container POST and watches them.
 */
import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { movableKinds } from "../domain/policy.js";
import { planRebalance, rebalanceInput } from "../domain/rebalance-plan.js";
import { DEFAULT_TOLERANCE, percentage } from "./tolerance.js";

export const endpoint = defineEndpoint(
  {
    summary: "Plan the moves that rebalance repositories by repository_storages_weighted (admin)",
    access: "read",
    admin: true,
    query: z.object({ tolerance: z.optional(percentage()) }),
  },
  async ({ query }) => {
    const { weights, placed } = await rebalanceInput(movableKinds());
    return planRebalance(weights, placed, query.tolerance ?? DEFAULT_TOLERANCE);
  },
);

export const handler = lambda(endpoint);
