/**
 * `GET /api/v4/repository_storages/move_plan?source_storage_name=…&destination_storage_name=…`
 * (administrators; not GitLab's): what moving every repository off a storage would move, whether it
 * fits on the destination, and how long it should take (`domain/move-plan.ts`).
 */
import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { assertBulkStorages } from "../domain/policy.js";
import { planStorageMove } from "../domain/move-plan.js";
import { storageName } from "./common.js";

export const endpoint = defineEndpoint(
  {
    summary: "Plan moving every repository off a storage: bytes, room on the destination, duration (admin)",
    access: "read",
    admin: true,
    query: z.object({ source_storage_name: storageName(), destination_storage_name: storageName() }),
  },
  async ({ query }) => {
    assertBulkStorages(query.source_storage_name, query.destination_storage_name);
    return planStorageMove(query.source_storage_name, query.destination_storage_name);
  },
);
export const handler = lambda(endpoint);
