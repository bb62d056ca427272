/**
 * GitLab's Sidekiq metrics, reporting this service's own background work (it has no Sidekiq):
 *
 * | Sidekiq          | here                                                                              |
 * |------------------|-----------------------------------------------------------------------------------|
 * | queue `error_tracking_ingest` | the SQS ingest queue: `backlog` its visible and delayed messages     |
 * | queue `web_hook` | the SQS hook queue (error tracking hook deliveries), likewise                     |
 * | queue `default`  | storage moves and group deletions (GitLab routes every job to `default`): nothing waits there for a worker, so 0 |
 * | process `ingest-consumer`, `hook-delivery` | each queue's consumer: `busy` its in-flight messages    |
 * | process `storage-moves` | the move state machine: `busy` its running executions                      |
 * | process `group-deletions` | the group-deletion job: `busy` the group deletions still in progress     |
 * | `jobs.processed`/`failed` | the counter the workers keep (`platform/job-stats.ts`); ingestion is not counted |
 * | `jobs.enqueued`  | the queues' backlogs                                                               |
 * | `jobs.dead`      | the messages in the two dead-letter queues                                        |
 *
 * Every figure is read when asked, and only the figures the route shows (`readBackgroundWork`): the
 * two queues' attributes always; for `jobs` the dead-letter queues' and one GetItem of the counter;
 * for `processes` the running executions (ListExecutions) and one Query of the pending group
 * deletions. Nothing is scanned.
 */
import { GetQueueAttributesCommand } from "@aws-sdk/client-sqs";
import { ListExecutionsCommand, type ListExecutionsCommandOutput } from "@aws-sdk/client-sfn";
import { sqsClient } from "../../platform/aws-sqs.js";
import { sfnClient } from "../../platform/aws-sfn.js";
import { getItem, queryAll } from "../../platform/db/table.js";
import { JOB_STATS_KEY } from "../../platform/job-stats.js";
import { linked } from "../../platform/resources.js";
import { PENDING_GROUP_DELETIONS } from "../../hosting/domain/keys.js";
import { QUEUE_BATCHING, type QueueBatching } from "../../route-spec.js";

/** What `stacks/monitoring.ts` links (`BackgroundWork`): the queues' URLs and the state machine's ARN. */
interface BackgroundWork {
  ingestQueue?: string;
  ingestDlq?: string;
  hookQueue?: string;
  hookDlq?: string;
  machine?: string;
}
const resources = () => linked("BackgroundWork") as BackgroundWork;

interface QueueCounts {
  /** Waiting to be received (visible and delayed). */
  waiting: number;
  /** Received and not deleted yet: being worked on, or back on the queue once their visibility ends. */
  inFlight: number;
}

const ATTRIBUTES = ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible", "ApproximateNumberOfMessagesDelayed"] as const;

async function queueCounts(url: string | undefined): Promise<QueueCounts> {
  if (!url) return { waiting: 0, inFlight: 0 };
  const out = await sqsClient().send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: [...ATTRIBUTES] }));
  const n = (name: (typeof ATTRIBUTES)[number]) => Number(out.Attributes?.[name] ?? 0) || 0;
  return { waiting: n("ApproximateNumberOfMessages") + n("ApproximateNumberOfMessagesDelayed"), inFlight: n("ApproximateNumberOfMessagesNotVisible") };
}

/** Running executions of the storage-move state machine, every page. */
async function runningMoveExecutions(machine: string | undefined): Promise<number> {
  if (!machine) return 0;
  let count = 0;
  let nextToken: string | undefined;
  do {
    const out: ListExecutionsCommandOutput = await sfnClient().send(new ListExecutionsCommand({ stateMachineArn: machine, statusFilter: "RUNNING", maxResults: 1000, nextToken }));
    count += out.executions?.length ?? 0;
    nextToken = out.nextToken;
  } while (nextToken);
  return count;
}

export interface BackgroundWorkState {
  ingest: QueueCounts;
  hooks: QueueCounts;
  dead: number;
  runningMoves: number;
  pendingGroupDeletions: number;
  processed: number;
  failed: number;
}

/**
 * What the routes answer from, read at once: the two queues always (every view shows them), the
 * figures only `jobStats` shows when `jobs`, those only `processMetrics` shows when `processes`
 * (`queue_metrics` asks neither, `compound_metrics` both). A figure not asked for is 0.
 */
export async function readBackgroundWork(views: { jobs?: boolean; processes?: boolean } = {}): Promise<BackgroundWorkState> {
  const r = resources();
  const none = { waiting: 0, inFlight: 0 };
  const [ingest, hooks, ingestDead, hooksDead, runningMoves, pending, stats] = await Promise.all([
    queueCounts(r.ingestQueue),
    queueCounts(r.hookQueue),
    views.jobs ? queueCounts(r.ingestDlq) : none,
    views.jobs ? queueCounts(r.hookDlq) : none,
    views.processes ? runningMoveExecutions(r.machine) : 0,
    views.processes ? queryAll<{ sk: string }>({ pk: PENDING_GROUP_DELETIONS, projection: ["sk"] }) : [],
    views.jobs ? getItem<{ processed?: number; failed?: number }>(JOB_STATS_KEY.pk, JOB_STATS_KEY.sk, false) : undefined,
  ]);
  return {
    ingest,
    hooks,
    dead: ingestDead.waiting + ingestDead.inFlight + hooksDead.waiting + hooksDead.inFlight,
    runningMoves,
    pendingGroupDeletions: pending.length,
    processed: stats?.processed ?? 0,
    failed: stats?.failed ?? 0,
  };
}

/** GitLab's `queues`: each with `backlog` and `latency` (seconds; SQS does not tell a message's age outside CloudWatch: 0). */
export function queueMetrics(s: BackgroundWorkState) {
  return {
    default: { backlog: 0, latency: 0 },
    error_tracking_ingest: { backlog: s.ingest.waiting, latency: 0 },
    web_hook: { backlog: s.hooks.waiting, latency: 0 },
  };
}

/**
 * GitLab's `processes`: one per worker of this service, always listed. A function has no host or
 * process id of its own: `hostname` is the worker's name, `pid` and `started_at` are null, `labels`
 * say how it runs.
 */
export function processMetrics(s: BackgroundWorkState) {
  const worker = (hostname: string, label: string, queues: string[], concurrency: number, busy: number) => ({
    hostname,
    pid: null,
    tag: "forgeline",
    started_at: null,
    queues,
    labels: [label],
    concurrency,
    busy,
  });
  return [
    // A consumer's concurrency: the messages it can hold at once, as `busy` counts them (its event
    // source's batch size times its concurrent invocations, one where the source sets no cap, as the local runtime runs it).
    worker("ingest-consumer", "sqs", ["error_tracking_ingest"], messagesAtOnce(QUEUE_BATCHING.IngestQueue), s.ingest.inFlight),
    worker("hook-delivery", "sqs", ["web_hook"], messagesAtOnce(QUEUE_BATCHING.HookQueue), s.hooks.inFlight),
    // Step Functions runs every execution started, with no pool: its concurrency is what runs (at least 1).
    worker("storage-moves", "step-functions", ["default"], Math.max(1, s.runningMoves), s.runningMoves),
    worker("group-deletions", "cron", ["default"], 1, s.pendingGroupDeletions),
  ];
}

const messagesAtOnce = (q: QueueBatching) => q.size * (q.maximumConcurrency ?? 1);

/** GitLab's `jobs`: totals, 0 when nothing ran. */
export function jobStats(s: BackgroundWorkState) {
  return { processed: s.processed, failed: s.failed, enqueued: s.ingest.waiting + s.hooks.waiting, dead: s.dead };
}
