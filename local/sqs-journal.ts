/**
 * A write-ahead journal for the SQS stand-in. fauxqs keeps messages in memory only, so without it a
 * crash, or a kill of the whole process group (a closed terminal, systemd stopping a service), would
 * lose messages SQS had already acknowledged: error events a client was told were accepted.
 *
 * - Each message a SendMessage(Batch) accepted is appended before the response leaves, and the
 *   journal is on disk by then (one `fdatasync` serves every response waiting at that moment).
 * - A successful DeleteMessage(Batch) appends the message's deletion (receipt handles are mapped to
 *   message ids from the ReceiveMessage responses); PurgeQueue and DeleteQueue drop a queue's messages.
 * - On start, the messages sent and never deleted are sent again when their queue is created (the
 *   runtime creates its queues on every start). Each new send is recorded before the old entry is
 *   dropped, so a crash during recovery loses nothing either.
 *
 * - On a nearly full disk (`out-of-space.ts`) sends are refused before anything is written.
 * - A record reaches the file whole or not at all: a write that falls short (a full disk takes part
 *   of it, then refuses the rest) is cut back off the file and fails the request, so no half line is
 *   left for the next record to be glued to, and nothing is acknowledged that is not on disk. A
 *   torn last record found at start (a crash in the middle of an append) was never acknowledged:
 *   it is dropped, with a log line.
 *
 * Redelivery, not exactly-once: a message processed but not yet deleted when the process died comes
 * again, as SQS itself may redeliver; the consumers are idempotent by event id. A message fauxqs had
 * moved to the dead-letter queue comes back on its source queue (that move happens inside fauxqs)
 * and reaches the dead-letter queue again if it keeps failing. Standard queues only (no FIFO fields).
 */
import { closeSync, existsSync, fdatasync, fsyncSync, ftruncateSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { promisify } from "node:util";
import { describeError, log } from "../functions/platform/log.js";
import { isLowOnSpace, OutOfSpaceError } from "../functions/platform/out-of-space.js";

type Attributes = Record<string, unknown>;
interface Message {
  queue: string;
  body: string;
  attributes?: Attributes;
}
type Entry = { put: string; id: string; body: string; attributes?: Attributes } | { del: string } | { drop: string };

const syncData = promisify(fdatasync);

/** `fs.writeSync`'s shape: how many of `length` bytes from `offset` it wrote (a full disk may take fewer). */
export type WriteFn = (fd: number, data: Buffer, offset: number, length: number) => number;

/** Writes all of `data`, or throws: a write that makes no progress means the disk is full. */
function writeWhole(write: WriteFn, fd: number, data: Buffer): void {
  for (let done = 0; done < data.length; ) {
    const written = write(fd, data, done, data.length - done);
    if (written <= 0) throw new OutOfSpaceError(`the queue journal took ${done} of ${data.length} bytes`);
    done += written;
  }
}

/** Rewrite the file once it holds this many entries and four times as many as live messages. */
const COMPACT_AFTER = 1000;

export class QueueJournal {
  private fd: number;
  private readonly live = new Map<string, Message>();
  /** Messages an earlier process left, by queue name, until that queue is created again. */
  private readonly recovered = new Map<string, Array<{ id: string } & Message>>();
  /** Receipt handle → message id, and each message's latest handle (the only one SQS honours). */
  private readonly handles = new Map<string, string>();
  private readonly latestHandle = new Map<string, string>();
  private entries = 0;
  private syncing: Promise<void> | undefined;
  private queued: Promise<void> | undefined;

  /** The file's length: where the next record goes, and where a record that fell short is cut back to. */
  private size = 0;

  constructor(
    private readonly file: string,
    private readonly write: WriteFn = writeSync,
  ) {
    mkdirSync(dirname(file), { recursive: true });
    const whole = existsSync(file) ? this.load() : 0;
    this.fd = openSync(file, "a");
    ftruncateSync(this.fd, whole); // a torn last record goes, so the next one starts a line
    this.size = whole;
    for (const [id, m] of this.live) this.recovered.set(m.queue, [...(this.recovered.get(m.queue) ?? []), { id, ...m }]);
    this.compact();
  }

  /** Applies the file's records; returns the length of its whole lines (all of it, unless the last was torn). */
  private load(): number {
    const text = readFileSync(this.file);
    const end = text.lastIndexOf(0x0a) + 1;
    if (end < text.length) log.warn("queue journal: dropped a torn last record (cut short by a crash or a full disk, never acknowledged)", { file: this.file, bytes: text.length - end });
    text.subarray(0, end).toString("utf8").split("\n").forEach((line, i) => {
      if (!line) return;
      try {
        this.apply(JSON.parse(line) as Entry);
      } catch {
        log.warn("queue journal: skipped an unreadable record", { file: this.file, line: i + 1 });
      }
    });
    return end;
  }

  /** Messages of `queue` that an earlier process accepted and never saw deleted; each is handed out once. */
  takeRecovered(queue: string): Array<{ id: string } & Message> {
    const out = this.recovered.get(queue) ?? [];
    this.recovered.delete(queue);
    return out;
  }

  sent(queue: string, id: string, body: string, attributes?: Attributes): void {
    // A nearly full disk takes no new messages (the sender hears an error and tries again later), as
    // the table takes no writes then: what is left is for deletions, which free space.
    if (isLowOnSpace(dirname(this.file))) throw new OutOfSpaceError("the disk under the queue journal is full");
    this.record([{ put: queue, id, body, ...(attributes && Object.keys(attributes).length ? { attributes } : {}) }]);
  }

  received(receiptHandle: string, id: string): void {
    this.handles.set(receiptHandle, id);
    this.latestHandle.set(id, receiptHandle);
  }

  /**
   * Deleted by receipt handle. Only a message's latest handle deletes it: a consumer that held the
   * message past its visibility timeout, while another received it again, still gets a success for
   * its stale handle, but the message stays queued (as on SQS), and so it stays in the journal.
   */
  deleted(receiptHandles: string[]): void {
    const ids = receiptHandles.flatMap((h) => {
      const id = this.handles.get(h);
      return id && this.latestHandle.get(id) === h && this.live.has(id) ? [id] : [];
    });
    this.record(ids.map((id) => ({ del: id }))); // kept if this throws: the consumer may delete again
    receiptHandles.forEach((h) => this.handles.delete(h));
    ids.forEach((id) => this.latestHandle.delete(id));
  }

  /** Drops an earlier process's message once it has been sent again. */
  replaced(oldId: string): void {
    this.record([{ del: oldId }]);
  }

  dropped(queue: string): void {
    this.record([{ drop: queue }]);
  }

  /** Resolves once every entry recorded so far is on disk. */
  flush(): Promise<void> {
    if (!this.syncing) return (this.syncing = this.syncNow());
    // A sync is under way and may have started before the last write: one more follows it, shared
    // by everyone who asks meanwhile.
    return (this.queued ??= this.syncing.then(() => {
      this.queued = undefined;
      return (this.syncing = this.syncNow());
    }));
  }

  /** On a clean stop: the file is left holding the live messages only. */
  close(): void {
    this.compact();
    closeSync(this.fd);
  }

  private async syncNow(): Promise<void> {
    try {
      await syncData(this.fd);
    } finally {
      this.syncing = undefined;
    }
    if (!this.queued && this.entries > COMPACT_AFTER && this.entries > 4 * this.live.size) this.compact();
  }

  /** Appends `entries` whole, or throws with the file as it was (and the request then fails). */
  private record(entries: Entry[]): void {
    if (entries.length === 0) return;
    const data = Buffer.from(entries.map((e) => JSON.stringify(e)).join("\n") + "\n");
    try {
      writeWhole(this.write, this.fd, data);
    } catch (err) {
      this.cutBack();
      throw err;
    }
    this.size += data.length;
    entries.forEach((e) => this.apply(e));
    this.entries += entries.length;
  }

  /** Removes what a failed append left after the last whole record (shortening a file needs no space). */
  private cutBack(): void {
    try {
      ftruncateSync(this.fd, this.size);
    } catch (err) {
      log.error("queue journal: a partial record could not be cut back", { file: this.file, ...describeError(err) });
    }
  }

  private apply(entry: Entry): void {
    if ("put" in entry) this.live.set(entry.id, { queue: entry.put, body: entry.body, attributes: entry.attributes });
    else if ("del" in entry) this.live.delete(entry.del);
    else for (const [id, m] of this.live) if (m.queue === entry.drop) this.live.delete(id);
  }

  /**
   * Rewrites the file with the live messages only (written aside, synced, then renamed over it).
   * On a disk too full for the copy the journal stays as it is, and keeps growing until there is room.
   */
  private compact(): void {
    const tmp = `${this.file}.tmp`;
    const lines = [...this.live].map(([id, m]) => JSON.stringify({ put: m.queue, id, body: m.body, ...(m.attributes ? { attributes: m.attributes } : {}) }));
    const data = Buffer.from(lines.length ? lines.join("\n") + "\n" : "");
    try {
      const fd = openSync(tmp, "w");
      try {
        writeWhole(this.write, fd, data);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(tmp, this.file);
    } catch (err) {
      rmSync(tmp, { force: true });
      log.warn("queue journal: not compacted", { file: this.file, ...describeError(err) });
      return;
    }
    const dir = openSync(dirname(this.file), "r"); // the rename itself reaches the disk
    fsyncSync(dir);
    closeSync(dir);
    closeSync(this.fd);
    this.fd = openSync(this.file, "a");
    this.size = data.length;
    this.entries = lines.length;
    for (const [handle, id] of this.handles) if (!this.live.has(id)) this.handles.delete(handle);
    for (const id of this.latestHandle.keys()) if (!this.live.has(id)) this.latestHandle.delete(id);
  }
}

/** The parts of fauxqs's Fastify app the journal uses. */
interface SqsApp {
  addHook(
    name: "onSend",
    hook: (request: { headers: Record<string, string | string[] | undefined>; body: unknown }, reply: { statusCode: number }, payload: unknown) => Promise<unknown>,
  ): unknown;
  inject(request: { method: "POST"; url: string; headers: Record<string, string>; payload: string }): Promise<{ body: string }>;
}

type Body = Record<string, unknown> & { QueueUrl?: string; Entries?: Array<Record<string, unknown>> };

/** The calls that change which messages exist (and ReceiveMessage, for its receipt handles); the rest pass untouched. */
const JOURNALED_ACTIONS = new Set(["SendMessage", "SendMessageBatch", "ReceiveMessage", "DeleteMessage", "DeleteMessageBatch", "PurgeQueue", "DeleteQueue", "CreateQueue"]);

const queueName = (url: unknown) => String(url ?? "").split("/").pop() ?? "";

/**
 * Journals the SQS calls that change which messages exist, from each request and its response,
 * before the response leaves. Recovered messages are sent again (through the app itself, so they
 * are journaled like any send) when CreateQueue creates their queue.
 */
export function journalRequests(app: SqsApp, journal: QueueJournal): void {
  app.addHook("onSend", async (request, reply, payload) => {
    const action = String(request.headers["x-amz-target"] ?? "").replace(/^AmazonSQS\./, "");
    if (!JOURNALED_ACTIONS.has(action) || reply.statusCode !== 200 || typeof payload !== "string") return payload;
    const body = (request.body ?? {}) as Body;
    const queue = queueName(body.QueueUrl);
    let out: Record<string, unknown>;
    try {
      out = JSON.parse(payload) as Record<string, unknown>;
    } catch {
      return payload;
    }
    switch (action) {
      case "SendMessage":
        journal.sent(queue, String(out.MessageId), String(body.MessageBody), body.MessageAttributes as Record<string, unknown>);
        await journal.flush();
        break;
      case "SendMessageBatch": {
        const byId = new Map((body.Entries ?? []).map((e) => [String(e.Id), e]));
        for (const ok of (out.Successful ?? []) as Array<{ Id: string; MessageId: string }>) {
          const entry = byId.get(ok.Id)!;
          journal.sent(queue, ok.MessageId, String(entry.MessageBody), entry.MessageAttributes as Record<string, unknown>);
        }
        await journal.flush();
        break;
      }
      case "ReceiveMessage":
        for (const m of (out.Messages ?? []) as Array<{ MessageId: string; ReceiptHandle: string }>) journal.received(m.ReceiptHandle, m.MessageId);
        break;
      case "DeleteMessage":
        journal.deleted([String(body.ReceiptHandle)]);
        break;
      case "DeleteMessageBatch": {
        const byId = new Map((body.Entries ?? []).map((e) => [String(e.Id), String(e.ReceiptHandle)]));
        journal.deleted(((out.Successful ?? []) as Array<{ Id: string }>).map((ok) => byId.get(ok.Id)!));
        break;
      }
      case "PurgeQueue":
      case "DeleteQueue":
        journal.dropped(queue);
        break;
      case "CreateQueue":
        await resend(app, journal, String(out.QueueUrl), String(body.QueueName));
        break;
    }
    return payload;
  });
}

async function resend(app: SqsApp, journal: QueueJournal, queueUrl: string, queue: string): Promise<void> {
  const pending = journal.takeRecovered(queue);
  for (let i = 0; i < pending.length; i += 10) {
    const chunk = pending.slice(i, i + 10);
    const res = await app.inject({
      method: "POST",
      url: "/",
      headers: { "content-type": "application/x-amz-json-1.0", "x-amz-target": "AmazonSQS.SendMessageBatch" },
      payload: JSON.stringify({ QueueUrl: queueUrl, Entries: chunk.map((m, j) => ({ Id: String(j), MessageBody: m.body, ...(m.attributes ? { MessageAttributes: m.attributes } : {}) })) }),
    });
    const sent = new Set(((JSON.parse(res.body) as { Successful?: Array<{ Id: string }> }).Successful ?? []).map((s) => Number(s.Id)));
    chunk.forEach((m, j) => sent.has(j) && journal.replaced(m.id));
  }
  await journal.flush();
}
