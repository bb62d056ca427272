import * as z from "zod/mini";
import { defineEndpoint } from "../../../platform/http/endpoint.js";
import { lambda } from "../../../platform/http/lambda.js";
import { assertBulkStorages } from "../../domain/policy.js";
import { planStorageMove } from "../../domain/move-plan.js";
import { describeMovePlan } from "../../domain/plan-text.js";
import { storageName } from "../common.js";

/**
 * `GET /admin/storage_moves/plan.json?source_storage_name&destination_storage_name` (the console's
 * plan form): the storage-wide move's plan, as `/repository_storages/move_plan` answers it, and the
 * lines `npm run moves -- plan` prints of it (the same function writes both).
 */
export const endpoint = defineEndpoint(
  { summary: "Plan of a storage-wide move, with the CLI's text (console JSON)", access: "read", admin: "hidden", query: z.object({ source_storage_name: storageName(), destination_storage_name: storageName() }) },
  async ({ query }) => {
    assertBulkStorages(query.source_storage_name, query.destination_storage_name);
    const plan = await planStorageMove(query.source_storage_name, query.destination_storage_name);
    return { plan, lines: describeMovePlan(plan) };
  },
);
export const handler = lambda(endpoint);
