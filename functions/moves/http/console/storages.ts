import { defineEndpoint } from "../../../platform/http/endpoint.js";
import { lambda } from "../../../platform/http/lambda.js";
import { storagesOverview } from "../../domain/console-storages.js";
import { pollEvery } from "./admin.js";

/**
 * `GET /admin/storages.json` (the console's storages page): every configured storage with its
 * repositories and bytes, free space and quota per replica, weight, and the moves in flight into
 * and out of it (`domain/console-storages.ts`). Asked again every 10 s, moves or not.
 */
export const endpoint = defineEndpoint({ summary: "Storages, their bytes, free space and moves in flight (console JSON)", access: "read", admin: "hidden" }, async ({ c }) => {
  const overview = await storagesOverview();
  // Each answer reads the whole inventory (every storage and kind): polled at the idle pace even
  // while moves run, their bytes still shown live; the moves page follows them closely.
  pollEvery(c, false);
  return overview;
});
export const handler = lambda(endpoint);
