/**
 * Scheduled work: one EventBridge Scheduler rule (`CronV2`; `Cron` is deprecated) per `workers`
 * entry of kind `cron`, running that worker's Lambda on its `schedule`.
 */
import { workers } from "../functions/routes";
import { cronSchedule, handlerOf, pascal, TIMEOUT_SECONDS, workersOfKind } from "./plan";
import { lambdaArgs, linksFor } from "./functions";
import { ingestQueue } from "./queues";
import { storageMoveMachine } from "./jobs";

export const crons = workersOfKind(workers, "cron").map(
  (w) =>
    new sst.aws.CronV2(`Cron${pascal(w.name)}`, {
      schedule: cronSchedule(w),
      function: lambdaArgs({
        handler: handlerOf(w.module),
        link: linksFor(w.module, "cron", { queue: ingestQueue, machine: storageMoveMachine }),
        timeout: `${TIMEOUT_SECONDS.cron} seconds`,
      }),
      // Scheduler retries a failed invocation; 2 covers transient errors without piling up runs.
      retries: 2,
    }),
);
