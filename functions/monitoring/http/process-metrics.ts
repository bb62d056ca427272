import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { processMetrics, readBackgroundWork } from "../domain/background-work.js";

/** GitLab's Sidekiq metrics API (administrators), over this service's background work (`domain/background-work.ts`). */
export const endpoint = defineEndpoint({ summary: "Current process metrics", access: "read", admin: true }, async () => {
  const state = await readBackgroundWork({ processes: true });
  return { processes: processMetrics(state) };
});
export const handler = lambda(endpoint);
