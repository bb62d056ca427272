/**
 * DynamoDB keys of the platform's own items, named by the access pattern that reads them. Each shape
 * of item has a prefix of its own: a reader of one prefix never meets another's attributes.
 *
 * | item                 | pk             | sk          | written by / read by                                   |
 * |----------------------|----------------|-------------|--------------------------------------------------------|
 * | id sequence          | SEQ#<name>     | SEQ         | `nextIds` (`db/table.ts`): `value`                      |
 * | running count        | COUNT#<name>   | COUNT       | `addToCount` / `readCount` (`db/table.ts`): `value`     |
 * | background job stats | JOBSTATS       | JOBSTATS    | `countJobs` (`job-stats.ts`) / Sidekiq `job_stats`: `processed`, `failed` |
 */

/** Sidekiq's processed and failed jobs (`job-stats.ts`), one item for the whole instance. */
export const JOB_STATS_KEY = { pk: "JOBSTATS", sk: "JOBSTATS" } as const;
