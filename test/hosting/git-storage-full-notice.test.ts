/**
 * The line added to receive-pack's answer when git itself runs out of space: once, in the side
 * band, just before git's own report, however the answer is cut into chunks; an answer without a
 * side band passes unchanged.
 */
import { describe, it, expect } from "vitest";
import { pktLine, withStorageFullNotice } from "../../functions/hosting/git-http/pkt-line.js";

const band = (n: number, text: string) => pktLine(Buffer.concat([Buffer.from([n]), Buffer.from(text)]));
const FLUSH = Buffer.from("0000");
const NOTICE = "The storage is full.";

async function passed(answer: Buffer, chunkSize: number): Promise<Buffer> {
  async function* chunks() {
    for (let i = 0; i < answer.length; i += chunkSize) yield answer.subarray(i, i + chunkSize);
  }
  const out: Buffer[] = [];
  for await (const chunk of withStorageFullNotice(chunks(), NOTICE)) out.push(chunk);
  return Buffer.concat(out);
}

describe("the storage-full notice in a push's answer", () => {
  const progress = band(2, "Unpacking objects:  50% (1/2)\r");
  const noSpace = band(2, "fatal: unable to write loose object file: No space left on device\n");
  const report = band(1, Buffer.concat([pktLine("unpack unpack-objects abnormal exit\n"), pktLine("ng refs/heads/main unpacker error\n"), FLUSH]).toString("latin1"));
  const againNoSpace = band(2, "error: unable to create temporary file: No space left on device\n");

  it("goes once, before git's first full-disk message, in every chunking", async () => {
    const answer = Buffer.concat([progress, noSpace, againNoSpace, report, FLUSH]);
    const expected = Buffer.concat([progress, band(2, `${NOTICE}\n`), noSpace, againNoSpace, report, FLUSH]);
    for (const size of [1, 3, 4, 5, 17, answer.length]) expect((await passed(answer, size)).equals(expected), `chunks of ${size}`).toBe(true);
  });

  it("leaves an answer without a full disk, or without a side band, as it was", async () => {
    const fine = Buffer.concat([progress, band(1, Buffer.concat([pktLine("unpack ok\n"), pktLine("ok refs/heads/main\n"), FLUSH]).toString("latin1")), FLUSH]);
    expect((await passed(fine, 7)).equals(fine)).toBe(true);
    // Without a side band the report comes bare; git's message then never reaches the user anyway.
    const bare = Buffer.concat([pktLine("unpack unable to write: No space left on device\n"), pktLine("ng refs/heads/main unpacker error\n"), FLUSH]);
    expect((await passed(bare, 5)).equals(bare)).toBe(true);
  });
});
