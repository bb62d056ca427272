/**
 * Just enough of git's pkt-line framing to refuse a push in git's own words: an `ERR` advertisement,
 * and a receive-pack result that rejects each ref of a push the server will not take. git prints
 * both (`remote error: …`, `! [remote rejected] main -> main (…)`), where an HTTP error status would
 * only show `RPC failed; HTTP 409`.
 */
import type { Readable } from "node:stream";
import { createGunzip } from "node:zlib";

const FLUSH = Buffer.from("0000");

export function pktLine(payload: string | Buffer): Buffer {
  const data = typeof payload === "string" ? Buffer.from(payload) : payload;
  return Buffer.concat([Buffer.from((data.length + 4).toString(16).padStart(4, "0")), data]);
}

export const errAdvertisement = (message: string) => pktLine(`ERR ${message}\n`);

export interface PushCommands {
  refs: string[];
  capabilities: string[];
}

/**
 * The ref update commands at the start of a receive-pack request (`<old> <new> <ref>\0<caps>`, …,
 * flush), read without the pack that follows. Undefined when the body does not start that way.
 */
export async function readPushCommands(body: Readable, contentEncoding?: string): Promise<PushCommands | undefined> {
  const source = /gzip/i.test(contentEncoding ?? "") ? body.pipe(createGunzip()) : body;
  let buffer = Buffer.alloc(0);
  const refs: string[] = [];
  let capabilities: string[] = [];
  for await (const chunk of source as AsyncIterable<Buffer>) {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      if (buffer.length < 4) break;
      const length = Number.parseInt(buffer.subarray(0, 4).toString("latin1"), 16);
      if (!Number.isFinite(length) || (length > 0 && length < 4)) return undefined;
      if (length === 0) return refs.length > 0 ? { refs, capabilities } : undefined;
      if (buffer.length < length) break;
      const line = buffer.subarray(4, length).toString("utf8").replace(/\n$/, "");
      buffer = buffer.subarray(length);
      const [command, caps] = line.split("\0");
      const ref = command?.split(" ")[2];
      if (!ref) return undefined;
      refs.push(ref);
      if (caps !== undefined) capabilities = caps.split(" ");
    }
    if (buffer.length > 65_536 + 4 || refs.length > 10_000) return undefined;
  }
  return undefined;
}

/** A receive-pack result rejecting every ref with `reason`, in the side band when the client asked for one. */
export function rejectedPushResult(commands: PushCommands, reason: string): Buffer {
  const status = Buffer.concat([pktLine("unpack ok\n"), ...commands.refs.map((ref) => pktLine(`ng ${ref} ${reason}\n`)), FLUSH]);
  if (!commands.capabilities.some((c) => c === "side-band-64k" || c === "side-band")) return status;
  // Band 2 is shown to the user as `remote: …`; band 1 carries the report-status lines.
  return Buffer.concat([pktLine(Buffer.concat([Buffer.from([2]), Buffer.from(`${reason}\n`)])), pktLine(Buffer.concat([Buffer.from([1]), status])), FLUSH]);
}

/** How git words a full disk (strerror of ENOSPC and EDQUOT) in what it prints. */
const NO_SPACE = /No space left on device|Disk quota exceeded/;

/**
 * receive-pack's answer, passed on as it streams, with `notice` in the side band just before the
 * first message in which git reports a full disk (`fatal: unable to write loose object file: No
 * space left on device`): the user reads `remote: <notice>` above git's own lines. Without a side
 * band (the answer is not side-band packets) it passes unchanged.
 */
export async function* withStorageFullNotice(body: AsyncIterable<Buffer>, notice: string): AsyncGenerator<Buffer> {
  let pending: Buffer = Buffer.alloc(0);
  let watching = true;
  for await (const chunk of body) {
    if (!watching) {
      yield chunk;
      continue;
    }
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    let at = 0; // the packets before `at` are whole and were looked at
    while (watching && pending.length - at >= 4) {
      const header = pending.subarray(at, at + 4).toString("latin1");
      if (!/^[0-9a-f]{4}$/i.test(header)) {
        watching = false; // not pkt-lines after all: nothing to look for
        break;
      }
      const length = Number.parseInt(header, 16);
      const size = length < 4 ? 4 : length; // flush, delimiter and response-end are 4 bytes
      if (pending.length - at < size) break;
      const band = pending[at + 4];
      if (size > 5 && (band === 2 || band === 3) && NO_SPACE.test(pending.subarray(at + 5, at + size).toString("utf8"))) {
        yield Buffer.concat([pending.subarray(0, at), pktLine(Buffer.concat([Buffer.from([2]), Buffer.from(`${notice}\n`)]))]);
        pending = pending.subarray(at);
        at = 0;
        watching = false;
        break;
      }
      at += size;
    }
    const ready = watching ? at : pending.length;
    if (ready > 0) yield pending.subarray(0, ready);
    pending = pending.subarray(ready);
  }
  if (pending.length) yield pending;
}
