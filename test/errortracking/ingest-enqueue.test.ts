/**
 * The send to SQS gives up on a queue endpoint that accepts connections and never answers: the
 * collector then answers 503 (nothing acknowledged) instead of holding the request. The bound is the
 * SQS client's per-attempt request timeout (`aws-sqs.ts`), which replaced a per-call abort signal so
 * the SDK can reuse its resolved middleware; counted here in attempts, not timed.
 */
import { describe, it, expect, afterEach } from "vitest";
import { createServer, type Server, type Socket } from "node:net";
import { enqueue } from "../../functions/errortracking/ingest/enqueue.js";
import { Unavailable } from "../../functions/errortracking/ingest/problem.js";

const saved = { endpoint: process.env.AWS_ENDPOINT_URL_SQS, queue: process.env.SST_RESOURCE_IngestQueue };
let server: Server | undefined;
const sockets: Socket[] = [];

afterEach(async () => {
  process.env.AWS_ENDPOINT_URL_SQS = saved.endpoint;
  process.env.SST_RESOURCE_IngestQueue = saved.queue;
  sockets.forEach((s) => s.destroy());
  await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
});

describe("ingest queue send", () => {
  it("fails with Unavailable after the SDK's attempts when the queue never answers", async () => {
    let requests = 0;
    server = createServer((socket) => {
      sockets.push(socket);
      // Reads each request and never writes an answer.
      socket.on("data", (chunk) => (requests += (chunk.toString("latin1").match(/^POST /gm) ?? []).length));
    });
    await new Promise<void>((ready) => server!.listen(0, "127.0.0.1", ready));
    const { port } = server.address() as { port: number };
    process.env.AWS_ENDPOINT_URL_SQS = `http://127.0.0.1:${port}`;
    process.env.SST_RESOURCE_IngestQueue = JSON.stringify({ url: `http://127.0.0.1:${port}/000000000000/silent` });

    const outcome = await enqueue(["{}"]).then(
      () => "queued",
      (err: unknown) => err,
    );
    expect(outcome).toBeInstanceOf(Unavailable);
    expect(requests).toBe(3); // the standard retry strategy's three attempts, each abandoned
  });
});
