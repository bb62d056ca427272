/**
 * `npm run moves -- <command>`: schedule, list and watch repository storage moves, and check that a
 * storage is empty (the seed's procedure, steps 3–5).
 *
 *   schedule <projects|snippets|groups|all> --from <storage> [--to <storage>] [--watch]
 *   move <project|snippet|group> <id or path> [--to <storage>] [--watch]
 *   list <projects|snippets|groups> [--limit N]
 *   show <project|snippet|group> <move id>   the record, its execution and its steps
 *   watch <projects|snippets|groups|all> [--since <move id>] [--from <storage>]
 *   check <storage>            exit status 1 while any project, snippet or group wiki remains there
 *   plan --from <storage> --to <storage>   what a storage-wide move would move, room, duration (exit 1: no room)
 *   cancel <projects|snippets|groups|all> --from <storage>   stop a storage-wide move
 *   concurrency <projects|snippets|groups|all> --from <storage> <N>   moves of it running at once
 *   rebalance [--dry-run] [--tolerance N] [--concurrency N]   spread repositories by storage weight (rebalance.ts)
 */
import { CliError, latestMoveId, remainingOn, type Api, type MoveRecordView } from "./client.js";
import { watch, type Watched, type WatchPace } from "./watch.js";
import { rebalance } from "./rebalance.js";
import type { MovePlan } from "../domain/move-plan.js";
import { describeMovePlan } from "../domain/plan-text.js";
import { consoleUrl } from "../domain/console-url.js";

export { describeMovePlan, durationText } from "../domain/plan-text.js";
export { consoleUrl };

interface ExecutionView {
  execution_arn: string | null;
  bulk_execution_name: string | null;
  history: Array<{ step: string; at: string; detail?: string }>;
}

const KINDS: Record<string, string> = { projects: "project", snippets: "snippet", groups: "group", project: "project", snippet: "snippet", group: "group" };
const PLURAL: Record<string, string> = { project: "projects", snippet: "snippets", group: "groups" };

export const USAGE = `Usage:
  npm run moves -- schedule <projects|snippets|groups|all> --from <storage> [--to <storage>] [--watch]
  npm run moves -- move <project|snippet|group> <id> [--to <storage>] [--watch]
  npm run moves -- list <projects|snippets|groups> [--limit N]
  npm run moves -- show <project|snippet|group> <move id>
  npm run moves -- watch <projects|snippets|groups|all> [--since <move id>] [--from <storage>]
  npm run moves -- check <storage>
  npm run moves -- plan --from <storage> --to <storage>
  npm run moves -- cancel <projects|snippets|groups|all> --from <storage>
  npm run moves -- concurrency <projects|snippets|groups|all> --from <storage> <N>
  npm run moves -- rebalance [--dry-run] [--tolerance <percentage points>] [--concurrency N]`;

interface Args {
  positional: string[];
  options: Map<string, string | true>;
}

export function parseArgs(argv: string[]): Args {
  const positional: string[] = [];
  const options = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "-h") options.set("--help", true);
    else if (!arg.startsWith("--")) positional.push(arg);
    else if (arg === "--watch" || arg === "--dry-run" || arg === "--help") options.set(arg, true);
    else if (argv[i + 1] === undefined) throw new CliError(`${arg} needs a value`);
    else options.set(arg, argv[++i]!);
  }
  return { positional, options };
}

function kindsOf(word: string | undefined): string[] {
  if (word === "all") return ["project", "snippet", "group"];
  const kind = word ? KINDS[word] : undefined;
  if (!kind) throw new CliError(`Expected projects, snippets, groups or all, not ${word ?? "nothing"}\n${USAGE}`);
  return [kind];
}

const option = (args: Args, name: string) => {
  const v = args.options.get(name);
  return typeof v === "string" ? v : undefined;
};

export const describeMove = (kind: string, m: MoveRecordView) => {
  const container = m[kind] as { id?: number; path_with_namespace?: string; full_path?: string; web_url?: string } | null;
  const name = container?.path_with_namespace ?? container?.web_url ?? `#${container?.id ?? "?"}`;
  return `${String(m.id).padStart(6)}  ${m.state.padEnd(14)} ${m.source_storage_name} → ${m.destination_storage_name}  ${kind} ${name}${m.error_message ? `  (${m.error_message})` : ""}`;
};

/** Runs one command; returns the process exit status. */
export async function runMovesCli(argv: string[], api: Api, out: (line: string) => void = console.log, pace: WatchPace = {}): Promise<number> {
  const args = parseArgs(argv);
  const [command, what, id] = args.positional;
  if (args.options.has("--help") || command === "help") {
    out(USAGE);
    return 0;
  }
  const finish = async (targets: Watched[]) => {
    if (!args.options.has("--watch")) return 0;
    const result = await watch(api, targets, out, pace);
    return result.failed ? 1 : 0;
  };
  switch (command) {
    case "schedule": {
      const source = option(args, "--from");
      if (!source) throw new CliError(`schedule needs --from <storage>\n${USAGE}`);
      const destination = option(args, "--to");
      const targets: Watched[] = [];
      for (const kind of kindsOf(what)) {
        const since = await latestMoveId(api, kind);
        await api.post(`/${kind}_repository_storage_moves`, { source_storage_name: source, ...(destination ? { destination_storage_name: destination } : {}) });
        out(`Scheduled every ${kind} repository on ${source}${destination ? ` to ${destination}` : ""}. Watch: npm run moves -- watch ${PLURAL[kind]} --since ${since} --from ${source}`);
        targets.push({ kind, since, source });
      }
      return finish(targets);
    }
    case "move": {
      const [kind] = kindsOf(what);
      if (!id) throw new CliError(`move needs the ${kind}'s id\n${USAGE}`);
      const destination = option(args, "--to");
      const move = await api.post<MoveRecordView>(`/${PLURAL[kind!]}/${encodeURIComponent(id)}/repository_storage_moves`, destination ? { destination_storage_name: destination } : {});
      out(describeMove(kind!, move));
      return finish([{ kind: kind!, since: move.id - 1 }]);
    }
    case "list": {
      const [kind] = kindsOf(what);
      const limit = Math.min(100, Number(option(args, "--limit") ?? 20));
      const moves = await api.get<MoveRecordView[]>(`/${kind}_repository_storage_moves?per_page=${limit}`);
      moves.forEach((m) => out(describeMove(kind!, m)));
      if (!moves.length) out(`No ${kind} repository storage moves.`);
      return 0;
    }
    case "show": {
      const [kind] = kindsOf(what);
      if (!id) throw new CliError(`show needs the move's id\n${USAGE}`);
      const move = await api.get<MoveRecordView>(`/${kind}_repository_storage_moves/${encodeURIComponent(id)}`);
      const run = await api.get<ExecutionView>(`/${kind}_repository_storage_moves/${encodeURIComponent(id)}/execution`);
      out(describeMove(kind!, move));
      out(`execution: ${run.execution_arn ?? "(not started)"}${run.bulk_execution_name ? `  (bulk: ${run.bulk_execution_name})` : ""}`);
      const page = consoleUrl(run.execution_arn);
      if (page) out(`console:   ${page}`);
      for (const step of run.history) out(`  ${step.at}  ${step.step}${step.detail ? `  ${step.detail}` : ""}`);
      return 0;
    }
    case "watch": {
      const since = Number(option(args, "--since") ?? 0);
      const result = await watch(api, kindsOf(what).map((kind) => ({ kind, since, source: option(args, "--from") })), out, pace);
      return result.failed ? 1 : 0;
    }
    case "check": {
      if (!what) throw new CliError(`check needs a storage name\n${USAGE}`);
      const left = await remainingOn(api, what);
      const total = Object.values(left).reduce((a, b) => a + b, 0);
      out(`${what}: ${left.project} projects, ${left.snippet} snippets, ${left.group} group wikis`);
      out(total === 0 ? `Nothing remains on ${what}.` : `${total} repositories remain on ${what}.`);
      return total === 0 ? 0 : 1;
    }
    case "plan": {
      const source = option(args, "--from");
      const destination = option(args, "--to");
      if (!source || !destination) throw new CliError(`plan needs --from <storage> and --to <storage>\n${USAGE}`);
      const plan = await api.get<MovePlan>(`/repository_storages/move_plan?source_storage_name=${encodeURIComponent(source)}&destination_storage_name=${encodeURIComponent(destination)}`);
      describeMovePlan(plan).forEach((line) => out(line));
      return plan.fits ? 0 : 1;
    }
    case "cancel": {
      const source = option(args, "--from");
      if (!source) throw new CliError(`cancel needs --from <storage>\n${USAGE}`);
      for (const kind of kindsOf(what)) {
        const res = await api.post<{ canceled_moves: number }>(`/${kind}_repository_storage_moves/cancel`, { source_storage_name: source });
        out(`Canceled the ${kind} moves off ${source}: no further page is scheduled; ${res.canceled_moves} scheduled moves failed (Canceled by an administrator) and stay writable on ${source}; moves already started run to their end.`);
      }
      return 0;
    }
    case "concurrency": {
      const source = option(args, "--from");
      const n = Number(id);
      if (!source || !Number.isInteger(n) || n < 1) throw new CliError(`concurrency needs --from <storage> and a whole number of moves above 0\n${USAGE}`);
      for (const kind of kindsOf(what)) {
        const res = await api.put<{ concurrency: number; batch_size: number; parallel_batches: number }>(`/${kind}_repository_storage_moves/concurrency`, { source_storage_name: source, concurrency: n });
        out(`${kind} moves off ${source}: at most ${res.concurrency} at once from the next page (batches of ${res.batch_size}, ${res.parallel_batches} at a time).`);
      }
      return 0;
    }
    case "rebalance": {
      const number = (name: string) => {
        const raw = option(args, name);
        if (raw === undefined) return undefined;
        const n = Number(raw);
        if (!Number.isFinite(n) || n < 0) throw new CliError(`${name} needs a number\n${USAGE}`);
        return n;
      };
      return rebalance(api, { dryRun: args.options.has("--dry-run"), tolerance: number("--tolerance"), concurrency: number("--concurrency") }, out, pace);
    }
    default:
      throw new CliError(USAGE);
  }
}
