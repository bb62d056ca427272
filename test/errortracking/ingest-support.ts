/**
 * Shared by the ingest tests: the real-SDK captures in `test/fixtures/sentry-sdk-captures`
 * (request line + headers + decoded body, see its README) turned back into wire requests, a project
 * with integrated tracking and an active key written as contract items (independent of the settings
 * API), the collector mounted in-process, and a private queue no consumer polls.
 */
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { createHash, randomBytes } from "node:crypto";
import { CreateQueueCommand, ReceiveMessageCommand, DeleteMessageBatchCommand } from "@aws-sdk/client-sqs";
import { createApp } from "../../functions/platform/http/app.js";
import { sqsClient } from "../../functions/platform/aws-sqs.js";
import { getItem, putItem } from "../../functions/platform/db/table.js";
import { clientKeyKey, keysOfProjectIndex, settingKey, type ClientKeyRecord, type ErrorTrackingSetting } from "../../functions/errortracking/domain/contracts.js";
import { mount } from "../../functions/errortracking/ingest/collector.js";
import { api, adminToken, unique } from "../support/api.js";

export const FIXTURES = resolve(import.meta.dirname, "../fixtures/sentry-sdk-captures");

export interface Fixture {
  /** `folder/NNN` */
  name: string;
  endpoint: "store" | "envelope";
  path: string;
  query: string;
  headers: Array<[string, string]>;
  /** The body as decoded in the file (raven: the base64 text). */
  decoded: Buffer;
  /** The body as sent on the wire (gzip re-applied where the SDK sent `Content-Encoding: gzip`). */
  wire: Buffer;
  /** Item types from the folder's INDEX.md (`[]` for store requests, which carry one event). */
  items: string[];
}

const HOP_BY_HOP = new Set(["host", "content-length", "transfer-encoding", "connection"]);

export function header(f: Fixture, name: string): string | undefined {
  return f.headers.find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];
}

function indexItems(folder: string): Map<string, string[]> {
  const map = new Map<string, string[]>();
  const index = join(FIXTURES, folder, "INDEX.md");
  if (!existsSync(index)) return map;
  for (const line of readFileSync(index, "utf8").split("\n")) {
    const m = /^\| (\d{3}) \|.*\| *(?:items: ([a-z_, ]+))? *\|$/.exec(line);
    if (m) map.set(m[1]!, m[2] ? m[2].split(",").map((s) => s.trim()) : []);
  }
  return map;
}

export function loadFixtures(): Fixture[] {
  const out: Fixture[] = [];
  for (const folder of readdirSync(FIXTURES, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort()) {
    const items = indexItems(folder);
    for (const file of readdirSync(join(FIXTURES, folder)).filter((f) => f.endsWith(".txt")).sort()) {
      const raw = readFileSync(join(FIXTURES, folder, file));
      const split = raw.indexOf("\r\n\r\n");
      const [requestLine, ...headerLines] = raw.subarray(0, split).toString("latin1").split("\r\n");
      const target = requestLine!.split(" ")[1]!;
      const [path, query = ""] = target.split("?") as [string, string?];
      const headers = headerLines.map((l) => [l.slice(0, l.indexOf(":")), l.slice(l.indexOf(":") + 1).trim()] as [string, string]);
      const decoded = raw.subarray(split + 4);
      const gzip = headers.some(([k, v]) => k.toLowerCase() === "content-encoding" && v.toLowerCase() === "gzip");
      out.push({
        name: `${folder}/${file.slice(0, 3)}`,
        endpoint: path.includes("/envelope") ? "envelope" : "store",
        path,
        query,
        headers,
        decoded,
        wire: gzip ? gzipSync(decoded) : decoded,
        items: items.get(file.slice(0, 3)) ?? [],
      });
    }
  }
  return out;
}

export interface IngestTarget {
  projectId: number;
  projectPath: string;
  publicKey: string;
  keyId: number;
  secret: string;
}

/** The request a fixture's SDK would send with this project's DSN. */
export function rewrite(f: Fixture, t: IngestTarget, opts: { project?: string } = {}): { url: string; init: RequestInit } {
  const swap = (s: string) => s.replaceAll("glet_publickey", t.publicKey).replaceAll("glet_pub", t.publicKey);
  const path = f.path.replace("/collector/api/1/", `/collector/api/${opts.project ?? t.projectId}/`);
  const headers: Record<string, string> = {};
  for (const [k, v] of f.headers) if (!HOP_BY_HOP.has(k.toLowerCase())) headers[k] = swap(v);
  let body = f.wire;
  if (f.endpoint === "envelope" && f.decoded.includes("glet_publickey")) {
    // The key sits in the envelope header line (dsn, trace.public_key), which has no length prefix.
    const text = swap(f.decoded.toString("utf8")).replace(/(collector\/)1"/g, `$1${t.projectId}"`);
    body = header(f, "content-encoding")?.toLowerCase() === "gzip" ? gzipSync(text) : Buffer.from(text);
  }
  return { url: `${path}${f.query ? `?${swap(f.query)}` : ""}`, init: { method: "POST", headers, body } };
}

/** A project with integrated tracking enabled and one active key (with a secret), as contract items. */
export async function createTarget(opts: { enabled?: boolean; integrated?: boolean } = {}): Promise<IngestTarget> {
  const created = await api("POST", "/api/v4/projects", { token: adminToken(), body: { name: unique("ingest") } });
  if (created.status !== 201) throw new Error(`project creation failed: ${created.status} ${created.text}`);
  const projectId = created.body.id as number;
  const setting: ErrorTrackingSetting = { projectId, enabled: opts.enabled ?? true, integrated: opts.integrated ?? true, apiUrl: null, projectName: null, organizationName: null };
  await putItem({ ...settingKey(projectId), ...setting });
  const key = await addKey(projectId);
  return { projectId, projectPath: created.body.path_with_namespace as string, ...key };
}

export async function addKey(projectId: number, active = true) {
  const publicKey = `glet_${randomBytes(16).toString("hex")}`;
  const secret = randomBytes(12).toString("hex");
  const keyId = 1_000_000 + Math.floor(Math.random() * 1_000_000_000);
  const record: ClientKeyRecord = { id: keyId, projectId, publicKey, secretHash: createHash("sha256").update(secret).digest("hex"), active, createdAt: new Date().toISOString() };
  await putItem({ ...clientKeyKey(publicKey), ...keysOfProjectIndex(projectId, keyId), ...record });
  return { publicKey, keyId, secret };
}

export async function setProjectFeature(projectId: number, feature: string, level: string) {
  const item = await getItem<Record<string, unknown> & { pk: string; sk: string; features: Record<string, string> }>(`PROJECT#${projectId}`, "PROJECT");
  await putItem({ ...item!, features: { ...item!.features, [feature]: level } });
}

/** The collector on its own Hono app in this process (same handlers, same DynamoDB and SQS). */
export function inProcessApp() {
  const app = createApp();
  mount(app);
  return app;
}

/** Points this process's ingest at a fresh queue that no consumer polls, so tests see every message. */
export async function privateQueue(): Promise<string> {
  const out = await sqsClient().send(new CreateQueueCommand({ QueueName: `ingest-test-${randomBytes(6).toString("hex")}` }));
  process.env.SST_RESOURCE_IngestQueue = JSON.stringify({ url: out.QueueUrl });
  return out.QueueUrl!;
}

/** Receives (and deletes) every message currently on `url`. */
export async function drain(url: string): Promise<any[]> {
  const bodies: any[] = [];
  for (;;) {
    const out = await sqsClient().send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }));
    const batch = out.Messages ?? [];
    if (batch.length === 0) return bodies;
    for (const m of batch) bodies.push(JSON.parse(m.Body!));
    await sqsClient().send(new DeleteMessageBatchCommand({ QueueUrl: url, Entries: batch.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })) }));
  }
}
