/**
 * An archive as a byte stream in one of GitLab's formats. tar and zip come straight from their
 * generators; gzip is node:zlib's stream; bzip2 has no Node built-in, so the tar is cut into chunks
 * of `BZIP2_CHUNK` bytes and each one becomes a complete bzip2 stream: a `.bz2` file may hold several
 * concatenated (bzip2, Python's bz2 and tarfile, libarchive read them all), and memory stays bounded
 * by one chunk whatever the archive's size.
 *
 * Everything is pulled: a chunk is produced only when the reader asks for the next one, and each
 * stage holds at most one chunk ahead.
 */
import { Readable } from "node:stream";
import { createGzip } from "node:zlib";
import { tarArchive, zipArchive, type ArchiveSource } from "./archive.js";

export type ArchiveKind = "tar" | "tar.gz" | "tar.bz2" | "zip";

/** GitLab's archive formats (its `archive_formats_regex`) and what each one is. */
export const ARCHIVE_FORMATS: Record<string, ArchiveKind> = {
  "tar.gz": "tar.gz",
  tgz: "tar.gz",
  gz: "tar.gz",
  tar: "tar",
  "tar.bz2": "tar.bz2",
  tbz: "tar.bz2",
  tbz2: "tar.bz2",
  tb2: "tar.bz2",
  bz2: "tar.bz2",
  zip: "zip",
};

export const BZIP2_CHUNK = 256 * 1024;

/** Counts what the archive's source produced, for callers (and tests) that watch memory. */
export interface ArchiveMeter {
  produced: number;
}

async function* metered(source: AsyncIterable<Buffer>, meter?: ArchiveMeter): AsyncGenerator<Buffer> {
  for await (const chunk of source) {
    if (meter) meter.produced += chunk.length;
    yield chunk;
  }
}

async function* gzipped(tar: AsyncGenerator<Buffer>): AsyncGenerator<Buffer> {
  const gzip = Readable.from(tar, { highWaterMark: 1 }).pipe(createGzip());
  for await (const chunk of gzip) yield chunk as Buffer;
}

type Bzip2 = typeof import("@ledgerhq/compressjs/src/lib/Bzip2.js").default;
let bzip2: Promise<Bzip2> | undefined;
// Only its Bzip2 module (the package's main file loads every codec it has), loaded on first use:
// only the bzip2 formats need it.
const loadBzip2 = () => (bzip2 ??= import("@ledgerhq/compressjs/src/lib/Bzip2.js").then((m) => ((m as { default?: Bzip2 }).default ?? (m as unknown as Bzip2))));

async function* bzipped(tar: AsyncGenerator<Buffer>): AsyncGenerator<Buffer> {
  const bz = await loadBzip2();
  let pending: Buffer[] = [];
  let size = 0;
  const flush = () => {
    const out = Buffer.from(bz.compressFile(Buffer.concat(pending, size), null, 9));
    pending = [];
    size = 0;
    return out;
  };
  for await (const chunk of tar) {
    pending.push(chunk);
    size += chunk.length;
    if (size >= BZIP2_CHUNK) yield flush();
  }
  if (size > 0) yield flush();
}

export function archiveChunks(src: ArchiveSource, prefix: string, kind: ArchiveKind, meter?: ArchiveMeter): AsyncGenerator<Buffer> {
  if (kind === "zip") return metered(zipArchive(src, prefix), meter);
  const tar = metered(tarArchive(src, prefix), meter);
  if (kind === "tar.gz") return gzipped(tar);
  if (kind === "tar.bz2") return bzipped(tar);
  return tar;
}

/** An archive (or the repository snapshot) as a web stream that pulls one chunk at a time. */
export function archiveStream(chunks: AsyncGenerator<Uint8Array>): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      async cancel() {
        await chunks.return(undefined);
      },
    },
    { highWaterMark: 0 },
  );
}
