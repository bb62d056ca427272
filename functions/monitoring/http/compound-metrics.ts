import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { jobStats, processMetrics, queueMetrics, readBackgroundWork } from "../domain/background-work.js";

/** GitLab's Sidekiq metrics API (administrators), over this service's background work (`domain/background-work.ts`). */
export const endpoint = defineEndpoint({ summary: "Queue, process and job metrics together", access: "read", admin: true }, async () => {
  const state = await readBackgroundWork({ jobs: true, processes: true });
  return { queues: queueMetrics(state), processes: processMetrics(state), jobs: jobStats(state) };
});
export const handler = lambda(endpoint);
