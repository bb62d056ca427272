import * as z from "zod/mini";
import { defineEndpoint } from "../../../platform/http/endpoint.js";
import { lambda } from "../../../platform/http/lambda.js";
import { planRebalance, rebalanceInput } from "../../domain/rebalance-plan.js";
import { describeRebalancePlan } from "../../domain/plan-text.js";
import { movableKinds } from "../../domain/policy.js";
import { DEFAULT_TOLERANCE, percentage } from "../tolerance.js";

/**
 * `GET /admin/storage_moves/rebalance.json?tolerance` (the console's rebalance form): the plan
 * `/repository_storages/rebalance_plan` answers, and the lines `npm run moves -- rebalance --dry-run`
 * prints of it (the same function writes both).
 */
export const endpoint = defineEndpoint(
  { summary: "Rebalance plan, with the CLI's dry-run text (console JSON)", access: "read", admin: "hidden", query: z.object({ tolerance: z.optional(percentage()) }) },
  async ({ query }) => {
    const { weights, placed } = await rebalanceInput(movableKinds());
    const plan = planRebalance(weights, placed, query.tolerance ?? DEFAULT_TOLERANCE);
    return { plan, lines: [...describeRebalancePlan(plan), ...(plan.moves.length ? ["Dry run: nothing was scheduled."] : [])] };
  },
);
export const handler = lambda(endpoint);
