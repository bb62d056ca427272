/**
 * POSIX tar headers (ustar, with pax extended headers for long names and huge sizes) for the tar
 * streams built here (`archive.ts`, `snapshot.ts`). They run in Lambda handlers, where this small
 * dependency-free encoder keeps the bundles small; backups (`functions/backup/`) use node-tar's.
 */
export const BLOCK = 512;
/** The largest size an 11-digit octal field holds; bigger files get a pax `size` record. */
const MAX_OCTAL_SIZE = 0o77777777777;

export interface TarHeader {
  path: string;
  type: "file" | "dir" | "symlink";
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
