/**
 * Ingest memory under hostile load: 40 concurrent gzip envelopes of ~50 KB that each inflate to
 * 48 MiB (20 with an unknown key in the envelope header's `dsn`, 20 with a valid key and one large
 * attachment), sent at once; the figure is the peak growth of the runtime's resident memory (the
 * server process and the stand-ins it started, summed from /proc) over its level just before.
 * Target: ≤ 256 MiB, every request answered without a 5xx, and a normal event accepted right after.
 *
 * The requests come from this process on `node:http` (their ~2 MB of bodies count against the
 * figure); the load client, another child of this process that is not part of the runtime, is left
 * out of the sum.
 */
import { randomBytes } from "node:crypto";
import { readFileSync, readdirSync } from "node:fs";
import { Agent, request } from "node:http";
import { createGzip } from "node:zlib";

const MiB = 1024 * 1024;
const INFLATED_BYTES = 48 * MiB;
const CONCURRENT = 40;
const PAGE = 4096;

export interface MemoryRow {
  name: string;
  baseline: string;
  value: number;
  baselineValue: number;
  unit: string;
  note: string;
}

/** `pid` and every process below it, read once from /proc (the tree does not change during the burst). */
function processTree(root: number, exclude: Set<number>): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // the process ended meanwhile
    }
  }
  const out: number[] = [];
  const visit = (pid: number) => {
    if (exclude.has(pid)) return;
    out.push(pid);
    for (const child of children.get(pid) ?? []) visit(child);
  };
  visit(root);
  return out;
}

function residentBytes(pids: number[]): number {
  let total = 0;
  for (const pid of pids) {
    try {
      total += Number(readFileSync(`/proc/${pid}/statm`, "utf8").split(" ")[1]) * PAGE;
    } catch {
      // ended
    }
  }
  return total;
}

/** An envelope whose attachment (zeros) inflates to 48 MiB, compressed as a stream (~50 KB). */
function bomb(dsn: string): Promise<Buffer> {
  const gzip = createGzip({ level: 9 });
  const out: Buffer[] = [];
  gzip.on("data", (c: Buffer) => out.push(c));
  gzip.write(`${JSON.stringify({ event_id: randomBytes(16).toString("hex"), dsn })}\n{"type":"event"}\n{"message":"memory bench event"}\n`);
  gzip.write(`{"type":"attachment","length":${INFLATED_BYTES},"filename":"heap.dump"}\n`);
  const zeros = Buffer.alloc(MiB);
  for (let i = 0; i < INFLATED_BYTES / MiB; i++) gzip.write(zeros);
  gzip.end("\n");
  return new Promise((resolve) => gzip.on("end", () => resolve(Buffer.concat(out))));
}

function post(agent: Agent, url: string, body: Buffer, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, method: "POST", headers: { ...headers, "content-length": body.length } }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end(body);
  });
}

export async function measureIngestMemory(opts: { baseUrl: string; projectId: number; key: string; excludePids: number[] }): Promise<MemoryRow> {
  const url = `${opts.baseUrl}/api/v4/error_tracking/collector/api/${opts.projectId}/envelope/`;
  const host = new URL(opts.baseUrl).host;
  const dsn = (key: string) => `http://${key}@${host}/api/v4/error_tracking/collector/${opts.projectId}`;
  const bodies = await Promise.all(Array.from({ length: CONCURRENT }, (_, i) => bomb(dsn(i % 2 === 0 ? opts.key : `glet_${randomBytes(16).toString("hex")}`))));
  const pids = processTree(process.pid, new Set(opts.excludePids));
  const before = residentBytes(pids);
  let peak = before;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peak = Math.max(peak, residentBytes(pids));
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENT });
  const statuses = await Promise.all(bodies.map((body) => post(agent, url, body, { "Content-Encoding": "gzip" }).catch(() => 0)));
  // Memory freed late still counts: keep sampling a moment after the last answer.
  await new Promise((r) => setTimeout(r, 1000));
  sampling = false;
  await sampler;
  const after = await post(agent, `${url}?sentry_key=${opts.key}`, Buffer.from('{}\n{"type":"event"}\n{"message":"after the burst"}\n'), {});
  agent.destroy();
  const count = (s: number) => statuses.filter((x) => x === s).length;
  const other = statuses.filter((s) => s !== 200 && s !== 404 && s !== 429);
  const growth = (peak - before) / MiB;
  return {
    name: `Ingest memory: ${CONCURRENT} concurrent gzip envelopes (~${Math.round(bodies[0]!.length / 1024)} KB) inflating to 48 MiB each, half with an unknown key`,
    baseline: "what those envelopes inflate to",
    value: growth,
    baselineValue: (CONCURRENT * INFLATED_BYTES) / MiB,
    unit: "MiB",
    note:
      `peak resident growth of the runtime's processes over ${(before / MiB).toFixed(0)} MiB before; target ≤ 256 MiB; ` +
      `answers: ${count(200)}×200, ${count(404)}×404, ${count(429)}×429${other.length ? `, others: ${other.join(",")}` : ""}; a normal event right after: ${after}`,
  };
}
