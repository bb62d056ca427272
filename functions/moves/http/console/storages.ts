import { defineEndpoint } from "../../../platform/http/endpoint.js";
import { lambda } from "../../../platform/http/lambda.js";
import { storagesOverview } from "../../domain/console-storages.js";
import { pollEvery } from "./admin.js";

/**
 * `GET /admin/storages.json` (the console's storages page): every configured storage with its
 * repositories and bytes, free space and quota per replica, weight, and the moves in flight into
 * and out of it (`domain/console-storages.ts`).
 */
export const endpoint = defineEndpoint({ summary: "Storages, their bytes, free space and moves in flight (console JSON)", access: "read", admin: "hidden" }, async ({ c }) => {
  const overview = await storagesOverview();
  pollEvery(c, overview.moves_in_flight > 0);
  return overview;
});
export const handler = lambda(endpoint);
