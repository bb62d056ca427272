/**
 * POSIX tar (ustar, with pax extended headers for long names and huge sizes), written by hand so the
 * archive is one ordinary file that `tar tf` lists and `tar xf` unpacks, without a dependency.
 *
 * The writer hashes what it writes: every entry's content (sha256, for the manifest) and every
 * byte of the archive before the manifest (`archive_sha256`), so the reader can prove that nothing
 * at all — headers and padding included — changed between backup and restore.
 */
import { createHash, type Hash } from "node:crypto";
import { open, type FileHandle } from "node:fs/promises";

export const BLOCK = 512;
const FLUSH_AT = 1 << 20;
/** The largest size an 11-digit octal field holds; bigger files get a pax `size` record. */
const MAX_OCTAL_SIZE = 0o77777777777;

export type EntryType = "file" | "dir";

export interface TarHeader {
  path: string;
  type: EntryType | "symlink";
  size: number;
  mode: number;
  /** Seconds since the epoch. */
  mtime: number;
  /** A symlink's target. */
  linkname?: string;
}

const octal = (value: number, width: number) => value.toString(8).padStart(width - 1, "0") + "\0";

function writeString(block: Buffer, text: string, offset: number, width: number): void {
  Buffer.from(text, "utf8").copy(block, offset, 0, width);
}

/** Splits a long path into ustar's prefix (≤155 bytes) and name (≤100 bytes) at a slash, if possible. */
function splitPath(path: string): { name: string; prefix: string } | undefined {
  if (Buffer.byteLength(path) <= 100) return { name: path, prefix: "" };
  for (let i = path.indexOf("/"); i > 0; i = path.indexOf("/", i + 1)) {
    const prefix = path.slice(0, i);
    const name = path.slice(i + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(name) <= 100 && name !== "") return { name, prefix };
  }
  return undefined;
}

function headerBlock(h: { name: string; prefix: string; size: number; mode: number; mtime: number; typeflag: string; linkname?: string }): Buffer {
  const block = Buffer.alloc(BLOCK);
  writeString(block, h.name, 0, 100);
  if (h.linkname) writeString(block, h.linkname, 157, 100);
  writeString(block, octal(h.mode & 0o7777, 8), 100, 8);
  writeString(block, octal(0, 8), 108, 8);
  writeString(block, octal(0, 8), 116, 8);
  writeString(block, octal(Math.min(h.size, MAX_OCTAL_SIZE), 12), 124, 12);
  writeString(block, octal(Math.max(0, Math.floor(h.mtime)), 12), 136, 12);
  block.write(h.typeflag, 156, "latin1");
  writeString(block, "ustar\0", 257, 6);
  writeString(block, "00", 263, 2);
  writeString(block, "forgeline", 265, 32);
  writeString(block, "forgeline", 297, 32);
  writeString(block, h.prefix, 345, 155);
  block.fill(0x20, 148, 156);
  let sum = 0;
  for (const byte of block) sum += byte;
  writeString(block, sum.toString(8).padStart(6, "0") + "\0 ", 148, 8);
  return block;
}

/** One pax record: `<length> <key>=<value>\n`, where the length counts itself. */
export function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  let length = Buffer.byteLength(body);
  while (String(length).length + Buffer.byteLength(body) !== length) length = String(length).length + Buffer.byteLength(body);
  return `${length}${body}`;
}

export const padding = (size: number) => (BLOCK - (size % BLOCK)) % BLOCK;

/** The header blocks of one entry: an optional pax header (with its data), then the ustar header. */
export function encodeHeader(h: TarHeader): Buffer[] {
  const path = h.type === "dir" && !h.path.endsWith("/") ? `${h.path}/` : h.path;
  const split = splitPath(path);
  const longLink = h.linkname !== undefined && Buffer.byteLength(h.linkname) > 100;
  const pax =
    (split ? "" : paxRecord("path", path)) + (h.size > MAX_OCTAL_SIZE ? paxRecord("size", String(h.size)) : "") + (longLink ? paxRecord("linkpath", h.linkname!) : "");
  const out: Buffer[] = [];
  if (pax) {
    const data = Buffer.from(pax, "utf8");
    out.push(headerBlock({ name: "PaxHeader", prefix: "", size: data.length, mode: 0o644, mtime: h.mtime, typeflag: "x" }));
    out.push(data, Buffer.alloc(padding(data.length)));
  }
  // Without a usable split the pax path wins; the ustar name is only a readable fallback.
  const fallback = split ?? { name: Buffer.from(path).subarray(-100).toString("utf8").replace(/^\uFFFD+/, ""), prefix: "" };
  const typeflag = h.type === "dir" ? "5" : h.type === "symlink" ? "2" : "0";
  out.push(headerBlock({ ...fallback, size: h.size, mode: h.mode, mtime: h.mtime, typeflag, linkname: longLink ? undefined : h.linkname }));
  return out;
}

export interface WrittenEntry {
  path: string;
  type: EntryType;
  size: number;
  sha256: string;
}

/** Appends entries to a file, buffered, hashing every byte until `sealPrefix()` is called. */
export class TarWriter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private prefix: Hash | undefined = createHash("sha256");
  bytesWritten = 0;

  private constructor(private readonly fh: FileHandle) {}

  static async create(path: string): Promise<TarWriter> {
    return new TarWriter(await open(path, "wx", 0o600));
  }

  private async push(buf: Buffer): Promise<void> {
    if (buf.length === 0) return;
    this.prefix?.update(buf);
    this.pending.push(buf);
    this.pendingBytes += buf.length;
    this.bytesWritten += buf.length;
    if (this.pendingBytes >= FLUSH_AT) await this.flush();
  }

  private async flush(): Promise<void> {
    if (this.pendingBytes === 0) return;
    const data = Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    await this.fh.write(data, 0, data.length);
  }

  async dir(path: string, mode = 0o755, mtime = Date.now() / 1000): Promise<WrittenEntry> {
    for (const b of encodeHeader({ path, type: "dir", size: 0, mode, mtime })) await this.push(b);
    return { path, type: "dir", size: 0, sha256: "" };
  }

  /** An entry whose content is in memory. */
  async file(path: string, data: Buffer, mode = 0o644, mtime = Date.now() / 1000): Promise<WrittenEntry> {
    for (const b of encodeHeader({ path, type: "file", size: data.length, mode, mtime })) await this.push(b);
    await this.push(data);
    await this.push(Buffer.alloc(padding(data.length)));
    return { path, type: "file", size: data.length, sha256: createHash("sha256").update(data).digest("hex") };
  }

  /**
   * An entry copied from disk. The size comes from `fstat` of the open file, so a file replaced by
   * rename meanwhile is still read whole from the inode we opened; a file that shrinks is an error.
   */
  async fileFromDisk(path: string, source: string): Promise<WrittenEntry> {
    const src = await open(source, "r");
    try {
      const st = await src.stat();
      for (const b of encodeHeader({ path, type: "file", size: st.size, mode: st.mode, mtime: st.mtimeMs / 1000 })) await this.push(b);
      const hash = createHash("sha256");
      let done = 0;
      while (done < st.size) {
        const chunk = Buffer.allocUnsafe(Math.min(FLUSH_AT, st.size - done));
        const { bytesRead } = await src.read(chunk, 0, chunk.length, done);
        if (bytesRead === 0) throw new Error(`${source} shrank while it was being archived`);
        const data = chunk.subarray(0, bytesRead);
        hash.update(data);
        await this.push(data);
        done += bytesRead;
      }
      await this.push(Buffer.alloc(padding(st.size)));
      return { path, type: "file", size: st.size, sha256: hash.digest("hex") };
    } finally {
      await src.close();
    }
  }

  /** sha256 of everything written so far; later bytes (the manifest) are no longer hashed. */
  sealPrefix(): string {
    const digest = this.prefix!.digest("hex");
    this.prefix = undefined;
    return digest;
  }

  /** Writes the end-of-archive marker (two zero blocks), flushes and syncs. */
  async close(): Promise<void> {
    await this.push(Buffer.alloc(BLOCK * 2));
    await this.flush();
    await this.fh.sync();
    await this.fh.close();
  }

  async abort(): Promise<void> {
    await this.fh.close().catch(() => undefined);
  }
}
