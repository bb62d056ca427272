/**
 * The archive writer: POSIX tar (ustar, with a pax extended header where ustar cannot hold a path or
 * a size), its headers encoded by node-tar's `Header` and `Pax` — the codec npm itself packs with —
 * so `tar tf` lists the archive and `tar xf` unpacks it.
 *
 * We frame the stream ourselves (header, content, zero padding, end marker) rather than going
 * through a packing stream, because the manifest needs what a stream hides: the sha256 of every
 * entry's content, and the sha256 of every other byte before the manifest (`archive_sha256`:
 * headers, pax records, padding), cut exactly where the manifest's header begins. Each byte is
 * hashed once (format 1 hashed content twice: once per entry, once in `archive_sha256`).
 *
 * Memory stays bounded whatever the file sizes: a file is copied through two `CHUNK` buffers (one
 * being written while the next is read, reused from file to file), and at most `FLUSH_AT` bytes of
 * small entries wait for the disk while one write is in flight.
 */
import { createHash, type Hash } from "node:crypto";
import { open, type FileHandle } from "node:fs/promises";
import { Header, type HeaderData } from "tar/header";
import { Pax } from "tar/pax";

export const BLOCK = 512;
const CHUNK = 4 << 20;
const FLUSH_AT = 4 << 20;
const ZEROS = Buffer.alloc(BLOCK * 2);

export const padding = (size: number) => (BLOCK - (size % BLOCK)) % BLOCK;

export type EntryType = "file" | "dir";

export interface WrittenEntry {
  path: string;
  type: EntryType;
  size: number;
  sha256: string;
}

/**
 * Header blocks of one entry: a pax header when ustar cannot hold the entry or when it carries a
 * `comment` (a standard pax record every tar ignores), then the ustar header.
 */
export function headerBlocks(data: HeaderData, comment?: string): Buffer[] {
  const header = new Header({ uname: "forgeline", gname: "forgeline", uid: 0, gid: 0, ...data });
  const block = Buffer.alloc(BLOCK);
  header.encode(block);
  if (!header.needPax && comment === undefined) return [block];
  // Only what ustar could not hold (a long or non-ASCII path, a size over 8 GiB), and the comment.
  return [new Pax({ path: data.path, size: data.size, mtime: data.mtime, comment }).encode(), block];
}

/** Figures a test reads to prove that memory stays bounded. */
export interface WriterStats {
  /** The most bytes held at once: waiting for the disk plus the write in flight. */
  maxHeldBytes: number;
}

export class TarWriter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private inFlight: Promise<unknown> = Promise.resolve();
  private inFlightBytes = 0;
  /** A failed background write, reported by the next flush (never left as an unhandled rejection). */
  private failure: unknown;
  private prefix: Hash | undefined = createHash("sha256");
  bytesWritten = 0;
  readonly stats: WriterStats = { maxHeldBytes: 0 };

  /** The two buffers large files are copied through, allocated once. */
  private copyBuffers: [Buffer, Buffer] | undefined;
  /** The pax comment the first entry carries (the format marker), until it is written. */
  private firstComment: string | undefined;

  private constructor(
    private readonly fh: FileHandle,
    firstComment: string | undefined,
  ) {
    this.firstComment = firstComment;
  }

  /** `firstComment`: a pax comment on the first entry, which a reader sees before any content. */
  static async create(path: string, opts: { firstComment?: string } = {}): Promise<TarWriter> {
    return new TarWriter(await open(path, "wx", 0o600), opts.firstComment);
  }

  private headers(data: HeaderData): Buffer[] {
    const comment = this.firstComment;
    this.firstComment = undefined;
    return headerBlocks(data, comment);
  }

  /** Appends bytes; all but entry content go into `archive_sha256` until it is sealed. */
  private async push(buf: Buffer, content = false): Promise<void> {
    if (buf.length === 0) return;
    if (!content) this.prefix?.update(buf);
    this.pending.push(buf);
    this.pendingBytes += buf.length;
    this.bytesWritten += buf.length;
    this.stats.maxHeldBytes = Math.max(this.stats.maxHeldBytes, this.pendingBytes + this.inFlightBytes);
    if (this.pendingBytes >= FLUSH_AT) await this.flush();
  }

  /** Hands the buffered bytes to the disk; waits only for the write before it. */
  private async flush(): Promise<void> {
    await this.inFlight;
    if (this.failure) throw this.failure;
    if (this.pendingBytes === 0) return;
    const buffers = this.pending;
    [this.pending, this.inFlightBytes, this.pendingBytes] = [[], this.pendingBytes, 0];
    this.inFlight = writeAll(this.fh, buffers).then(
      () => void (this.inFlightBytes = 0),
      (err: unknown) => void (this.failure ??= err),
    );
  }

  async dir(path: string, mode = 0o755, mtime = Date.now() / 1000): Promise<WrittenEntry> {
    for (const b of this.headers({ path: path.endsWith("/") ? path : `${path}/`, type: "Directory", size: 0, mode: mode & 0o7777, mtime: new Date(mtime * 1000) })) await this.push(b);
    return { path, type: "dir", size: 0, sha256: "" };
  }

  /** An entry whose content is in memory. */
  async file(path: string, data: Buffer, mode = 0o644, mtime = Date.now() / 1000): Promise<WrittenEntry> {
    for (const b of this.headers({ path, type: "File", size: data.length, mode: mode & 0o7777, mtime: new Date(mtime * 1000) })) await this.push(b);
    await this.push(data, true);
    await this.push(ZEROS.subarray(0, padding(data.length)));
    return { path, type: "file", size: data.length, sha256: createHash("sha256").update(data).digest("hex") };
  }

  /**
   * An entry copied from disk in chunks. The size comes from `fstat` of the open file, so a file
   * replaced by rename meanwhile is still read whole from the inode we opened; one that shrinks is
   * an error. The next chunk is read into one buffer while the other is written.
   */
  async fileFromDisk(path: string, source: string): Promise<WrittenEntry> {
    const src = await open(source, "r");
    let reading: Promise<Buffer> | undefined;
    try {
      const st = await src.stat();
      for (const b of this.headers({ path, type: "File", size: st.size, mode: st.mode & 0o7777, mtime: st.mtime })) await this.push(b);
      // The headers first; then the content goes straight from the copy buffers to the file.
      await this.flush();
      await this.inFlight;
      if (this.failure) throw this.failure;
      const buffers = (this.copyBuffers ??= [Buffer.allocUnsafe(CHUNK), Buffer.allocUnsafe(CHUNK)]);
      this.stats.maxHeldBytes = Math.max(this.stats.maxHeldBytes, 2 * CHUNK);
      const readInto = async (buf: Buffer, at: number) => {
        const length = Math.min(CHUNK, st.size - at);
        for (let got = 0; got < length; ) {
          const { bytesRead } = await src.read(buf, got, length - got, at + got);
          if (bytesRead === 0) throw new Error(`${source} shrank while it was being archived`);
          got += bytesRead;
        }
        return buf.subarray(0, length);
      };
      const hash = createHash("sha256");
      reading = st.size > 0 ? readInto(buffers[0], 0) : undefined;
      for (let done = 0, i = 0; reading; i++) {
        const chunk = await reading;
        hash.update(chunk);
        done += chunk.length;
        // Write this chunk while the next is read into the other buffer (whose write has ended).
        const writing = writeAll(this.fh, [chunk]);
        reading = done < st.size ? readInto(buffers[(i + 1) % 2]!, done) : undefined;
        await Promise.all([writing, reading?.catch(() => undefined)]);
        this.bytesWritten += chunk.length;
      }
      await this.push(ZEROS.subarray(0, padding(st.size)));
      return { path, type: "file", size: st.size, sha256: hash.digest("hex") };
    } finally {
      await reading?.catch(() => undefined); // a read must not outlive its file handle
      await src.close();
    }
  }

  /** sha256 of every byte but entry content written so far; later bytes (the manifest) are not hashed. */
  sealPrefix(): string {
    const digest = this.prefix!.digest("hex");
    this.prefix = undefined;
    return digest;
  }

  /** Writes the end-of-archive marker (two zero blocks), flushes and syncs. */
  async close(): Promise<void> {
    await this.push(ZEROS);
    await this.flush();
    await this.inFlight;
    if (this.failure) throw this.failure;
    await this.fh.sync();
    await this.fh.close();
  }

  async abort(): Promise<void> {
    await this.inFlight;
    await this.fh.close().catch(() => undefined);
  }
}

/** One `writev` (no copy into a single buffer), continued where the kernel stopped short. */
async function writeAll(fh: FileHandle, buffers: Buffer[]): Promise<void> {
  let { bytesWritten } = await fh.writev(buffers);
  for (const b of buffers) {
    if (bytesWritten >= b.length) bytesWritten -= b.length;
    else {
      for (let done = bytesWritten; done < b.length; ) done += (await fh.write(b, done, b.length - done)).bytesWritten;
      bytesWritten = 0;
    }
  }
}
