/**
 * A strict, streaming reader for backup archives, headers decoded by node-tar's `Header` and `Pax`.
 * Strict on purpose: a backup is only trusted if every byte is accounted for, so header checksums
 * are checked, padding and the end-of-archive marker must be zeros, and an archive that ends early
 * is reported as truncated — with where. Archives from every version of `npm run backup` read
 * alike: they are all ustar with pax headers.
 *
 * The file is read in `CHUNK` pieces with one read ahead; entry content is handed out as slices
 * of those pieces, so memory stays bounded whatever the size of a file in the archive.
 */
import { open, type FileHandle } from "node:fs/promises";
import { Header } from "tar/header";
import { Pax } from "tar/pax";
import { ArchiveError } from "./errors.js";
import { BLOCK, padding } from "./tar-writer.js";

const CHUNK = 4 << 20;
/** Pax records name a path and a size here; anything larger is not ours. */
const MAX_PAX = 1 << 20;

export interface TarEntry {
  path: string;
  type: "file" | "dir";
  size: number;
  mode: number;
  /** Seconds since the epoch. */
  mtime: number;
  /** Offset of the entry's first header block (its pax header, when it has one). */
  offset: number;
  /** A pax `comment` record on the entry (the first entry's names the backup format). */
  comment?: string;
  /** The content, in chunks; must be consumed or skipped (by not calling it) before the next entry. */
  chunks(): AsyncGenerator<Buffer>;
}

/**
 * Called with every byte of the archive in order; `entryStart` marks an entry's first header block,
 * `content` an entry's content (everything else is headers, pax records, padding, end marker).
 */
export type ByteObserver = (raw: Buffer, entryStart: boolean, content: boolean) => void;

/** Figures a test reads to prove that memory stays bounded. */
export interface ReaderStats {
  /** The largest piece read from the file at once. */
  maxChunkBytes: number;
}

class Source {
  /** Absolute offset of the next byte handed out. */
  pos = 0;
  private buf: Buffer = Buffer.alloc(0);
  private at = 0;
  private loadedTo = 0;
  private ahead: Promise<Buffer> | undefined;

  constructor(
    private readonly fh: FileHandle,
    readonly size: number,
    private readonly observe: ByteObserver | undefined,
    private readonly onProgress: ((pos: number) => void) | undefined,
    readonly stats: ReaderStats,
  ) {}

  private truncated(n: number, what: string): ArchiveError {
    return new ArchiveError(`the archive is truncated: it ends at byte ${this.size}, ${this.pos + n - this.size} bytes short of the end of ${what}`);
  }

  private readPiece(from: number): Promise<Buffer> {
    const length = Math.min(CHUNK, this.size - from);
    this.stats.maxChunkBytes = Math.max(this.stats.maxChunkBytes, length);
    const reading = (async () => {
      const piece = Buffer.allocUnsafe(length);
      for (let got = 0; got < length; ) {
        const { bytesRead } = await this.fh.read(piece, got, length - got, from + got);
        if (bytesRead === 0) throw new ArchiveError(`the archive is truncated: it shrank while it was being read`);
        got += bytesRead;
      }
      return piece;
    })();
    reading.catch(() => undefined); // surfaced where it is awaited
    return reading;
  }

  /** Makes sure unread bytes are buffered (the caller checked that the file has them). */
  private async fill(): Promise<void> {
    if (this.at < this.buf.length) return;
    this.buf = await (this.ahead ?? this.readPiece(this.loadedTo));
    this.at = 0;
    this.loadedTo += this.buf.length;
    this.ahead = this.loadedTo < this.size ? this.readPiece(this.loadedTo) : undefined;
    this.onProgress?.(this.pos);
  }

  private hand(n: number, entryStart: boolean, content = false): Buffer {
    const out = this.buf.subarray(this.at, this.at + n);
    this.at += n;
    this.pos += n;
    this.observe?.(out, entryStart, content);
    return out;
  }

  /**
   * Up to `max` bytes (at least one), without copying: a slice of the piece read from the file.
   * `max` is all that is left of `what`, so an archive too short for it is reported at once.
   */
  async some(max: number, what: string): Promise<Buffer> {
    if (this.pos + max > this.size) throw this.truncated(max, what);
    await this.fill();
    return this.hand(Math.min(max, this.buf.length - this.at), false, true);
  }

  /** Exactly `n` bytes (a header, padding, a pax record); copied only when they span two pieces. */
  async exactly(n: number, what: string, entryStart = false): Promise<Buffer> {
    if (this.pos + n > this.size) throw this.truncated(n, what);
    await this.fill();
    if (this.buf.length - this.at >= n) return this.hand(n, entryStart);
    const parts: Buffer[] = [];
    for (let left = n; left > 0; ) {
      await this.fill();
      const part = this.hand(Math.min(left, this.buf.length - this.at), entryStart && left === n);
      parts.push(part);
      left -= part.length;
    }
    return Buffer.concat(parts, n);
  }

  async finish(): Promise<void> {
    await this.ahead?.catch(() => undefined);
    this.onProgress?.(this.pos);
  }
}

const isZero = (buf: Buffer) => buf.every((b) => b === 0);

function parseHeader(block: Buffer, at: number, pax: Pax | undefined) {
  let h: Header;
  try {
    h = new Header(block, 0, pax);
  } catch {
    throw new ArchiveError(`the tar header at byte ${at} is corrupt (it cannot be decoded)`);
  }
  if (!h.cksumValid) throw new ArchiveError(`the tar header at byte ${at} is corrupt (header checksum mismatch)`);
  if (block.subarray(257, 265).toString("latin1") !== "ustar\u000000") {
    throw new ArchiveError(`the entry at byte ${at} is not a POSIX ustar header: this is not a Forgeline backup`);
  }
  // As node-tar's own ReadEntry does: pax records win over the ustar fields (Header alone would
  // still prepend the ustar prefix to a pax path).
  if (pax?.path !== undefined) h.path = pax.path;
  if (pax?.size !== undefined) h.size = pax.size;
  for (const [what, value] of [["size", h.size], ["mode", h.mode]] as const) {
    if (!Number.isSafeInteger(value) || value! < 0) throw new ArchiveError(`a tar header has an invalid ${what} field`);
  }
  return h;
}

/**
 * Reads `file` entry by entry. Throws `ArchiveError` on any structural problem, including bytes
 * after the end-of-archive marker that are not zeros.
 */
export async function* readTar(
  file: string,
  opts: { observe?: ByteObserver; onProgress?: (pos: number, size: number) => void; stats?: ReaderStats } = {},
): AsyncGenerator<TarEntry> {
  const fh = await open(file, "r");
  const size = (await fh.stat()).size;
  const src = new Source(fh, size, opts.observe, opts.onProgress && ((pos) => opts.onProgress!(pos, size)), opts.stats ?? { maxChunkBytes: 0 });
  try {
    let pax: Pax | undefined;
    let entryStart = src.pos;
    for (;;) {
      const at = src.pos;
      const block = await src.exactly(BLOCK, "the next tar header or the end-of-archive marker", pax === undefined);
      if (isZero(block)) {
        if (!isZero(await src.exactly(BLOCK, "the end-of-archive marker"))) throw new ArchiveError(`the end-of-archive marker at byte ${at} is not zeros`);
        while (src.pos < size) {
          if (!isZero(await src.exactly(Math.min(BLOCK, size - src.pos), "trailing padding"))) throw new ArchiveError("there is data after the end-of-archive marker");
        }
        return;
      }
      const h = parseHeader(block, at, pax);
      if (h.type === "ExtendedHeader") {
        if (h.size! > MAX_PAX) throw new ArchiveError(`the pax extended header at byte ${at} is implausibly large`);
        const data = await src.exactly(h.size!, "a pax extended header");
        await readPadding(src, h.size!, "a pax extended header");
        try {
          pax = Pax.parse(data.toString("utf8"));
        } catch {
          throw new ArchiveError("a pax extended header is corrupt");
        }
        continue;
      }
      const comment = pax?.comment;
      pax = undefined;
      const path = (h.path ?? "").replace(/\/$/, "");
      if (h.type !== "File" && h.type !== "OldFile" && h.type !== "Directory") throw new ArchiveError(`the entry ${path} has an unsupported type '${h.typeKey}'`);
      const entrySize = h.size!;
      let consumed = false;
      const chunks = async function* (): AsyncGenerator<Buffer> {
        consumed = true;
        for (let left = entrySize; left > 0; ) {
          const chunk = await src.some(left, `the content of ${path}`);
          left -= chunk.length;
          yield chunk;
        }
        await readPadding(src, entrySize, `the content of ${path}`);
      };
      const type = h.type === "Directory" ? "dir" : "file";
      yield { path, type, size: entrySize, mode: h.mode!, mtime: (h.mtime?.getTime() ?? 0) / 1000, offset: entryStart, comment, chunks };
      if (!consumed) for await (const _ of chunks()) void _;
      entryStart = src.pos;
    }
  } finally {
    await src.finish();
    await fh.close();
  }
}

async function readPadding(src: Source, size: number, what: string): Promise<void> {
  const pad = padding(size);
  if (pad && !isZero(await src.exactly(pad, what))) throw new ArchiveError(`the padding after ${what} is not zeros (the archive was altered)`);
}
