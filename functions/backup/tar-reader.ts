/**
 * A strict reader for the archives `tar.ts` writes. Strict on purpose: a backup is only trusted if
 * every byte is accounted for, so header checksums are checked, padding and the end-of-archive
 * marker must be zeros, and an archive that ends early is reported as truncated — with where.
 */
import { open, type FileHandle } from "node:fs/promises";
import { ArchiveError } from "./errors.js";
import { BLOCK, padding, type TarHeader } from "./tar.js";

const CHUNK = 1 << 20;

export interface TarEntry extends TarHeader {
  /** Offset of the entry's first header block (its pax header, when it has one). */
  offset: number;
  /** The content, in chunks; must be consumed or skipped (by not calling it) before the next entry. */
  chunks(): AsyncGenerator<Buffer>;
}

/** Called with every byte of the archive in order; `entryStart` marks an entry's first header block. */
export type ByteObserver = (raw: Buffer, entryStart: boolean) => void;

class Source {
  pos = 0;
  constructor(
    private readonly fh: FileHandle,
    readonly size: number,
    private readonly observe: ByteObserver | undefined,
    private readonly onProgress: ((pos: number) => void) | undefined,
  ) {}

  async read(n: number, what: string, entryStart = false): Promise<Buffer> {
    if (this.pos + n > this.size) {
      throw new ArchiveError(`the archive is truncated: it ends at byte ${this.size}, ${this.pos + n - this.size} bytes short of the end of ${what}`);
    }
    const buf = Buffer.allocUnsafe(n);
    let got = 0;
    while (got < n) {
      const { bytesRead } = await this.fh.read(buf, got, n - got, this.pos + got);
      if (bytesRead === 0) throw new ArchiveError(`the archive is truncated: it ended while reading ${what}`);
      got += bytesRead;
    }
    this.pos += n;
    this.observe?.(buf, entryStart);
    this.onProgress?.(this.pos);
    return buf;
  }
}

const isZero = (buf: Buffer) => buf.every((b) => b === 0);

function field(block: Buffer, offset: number, width: number): string {
  const raw = block.subarray(offset, offset + width);
  const end = raw.indexOf(0);
  return raw.subarray(0, end < 0 ? width : end).toString("utf8");
}

function octalField(block: Buffer, offset: number, width: number, what: string): number {
  const text = field(block, offset, width).trim();
  if (!/^[0-7]+$/.test(text)) throw new ArchiveError(`a tar header has an invalid ${what} field`);
  return parseInt(text, 8);
}

function parseHeader(block: Buffer, at: number) {
  const stored = octalField(block, 148, 8, "checksum");
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : block[i]!;
  if (sum !== stored) throw new ArchiveError(`the tar header at byte ${at} is corrupt (header checksum mismatch)`);
  if (field(block, 257, 6) !== "ustar" || block.subarray(263, 265).toString("latin1") !== "00") {
    throw new ArchiveError(`the entry at byte ${at} is not a POSIX ustar header: this is not a Forgeline backup`);
  }
  const prefix = field(block, 345, 155);
  const name = field(block, 0, 100);
  return {
    path: prefix ? `${prefix}/${name}` : name,
    size: octalField(block, 124, 12, "size"),
    mode: octalField(block, 100, 8, "mode"),
    mtime: octalField(block, 136, 12, "mtime"),
    typeflag: String.fromCharCode(block[156]!),
  };
}

function parsePax(data: Buffer): Record<string, string> {
  const out: Record<string, string> = {};
  let i = 0;
  while (i < data.length) {
    const space = data.indexOf(0x20, i);
    const length = Number(data.subarray(i, space).toString("latin1"));
    if (space < 0 || !Number.isSafeInteger(length) || length <= 0 || i + length > data.length) throw new ArchiveError("a pax extended header is corrupt");
    const record = data.subarray(space + 1, i + length - 1).toString("utf8");
    const eq = record.indexOf("=");
    out[record.slice(0, eq)] = record.slice(eq + 1);
    i += length;
  }
  return out;
}

/**
 * Reads `file` entry by entry. Throws `ArchiveError` on any structural problem, including bytes
 * after the end-of-archive marker that are not zeros.
 */
export async function* readTar(file: string, opts: { observe?: ByteObserver; onProgress?: (pos: number, size: number) => void } = {}): AsyncGenerator<TarEntry> {
  const fh = await open(file, "r");
  try {
    const size = (await fh.stat()).size;
    const src = new Source(fh, size, opts.observe, opts.onProgress && ((pos) => opts.onProgress!(pos, size)));
    let pax: Record<string, string> = {};
    let entryStart = src.pos;
    for (;;) {
      const at = src.pos;
      const block = await src.read(BLOCK, "the next tar header or the end-of-archive marker", Object.keys(pax).length === 0);
      if (isZero(block)) {
        if (!isZero(await src.read(BLOCK, "the end-of-archive marker"))) throw new ArchiveError(`the end-of-archive marker at byte ${at} is not zeros`);
        while (src.pos < size) {
          if (!isZero(await src.read(Math.min(CHUNK, size - src.pos), "trailing padding"))) throw new ArchiveError("there is data after the end-of-archive marker");
        }
        return;
      }
      const h = parseHeader(block, at);
      if (h.typeflag === "x") {
        const data = await src.read(h.size, "a pax extended header");
        await readPadding(src, h.size, "a pax extended header");
        pax = parsePax(data);
        continue;
      }
      if (h.typeflag !== "0" && h.typeflag !== "\0" && h.typeflag !== "5") throw new ArchiveError(`the entry ${h.path} has an unsupported type '${h.typeflag}'`);
      const path = (pax.path ?? h.path).replace(/\/$/, "");
      const entrySize = pax.size !== undefined ? Number(pax.size) : h.size;
      pax = {};
      let consumed = false;
      const chunks = async function* (): AsyncGenerator<Buffer> {
        consumed = true;
        let left = entrySize;
        while (left > 0) {
          const chunk = await src.read(Math.min(CHUNK, left), `the content of ${path}`);
          left -= chunk.length;
          yield chunk;
        }
        await readPadding(src, entrySize, `the content of ${path}`);
      };
      const entry: TarEntry = { path, type: h.typeflag === "5" ? "dir" : "file", size: entrySize, mode: h.mode, mtime: h.mtime, offset: entryStart, chunks };
      yield entry;
      if (!consumed) for await (const _ of chunks()) void _;
      entryStart = src.pos;
    }
  } finally {
    await fh.close();
  }
}

async function readPadding(src: Source, size: number, what: string): Promise<void> {
  const pad = padding(size);
  if (pad && !isZero(await src.read(pad, what))) throw new ArchiveError(`the padding after ${what} is not zeros (the archive was altered)`);
}
