/**
 * The archive container on its own (no runtime): the tar files we write are ones the real `tar`
 * lists and unpacks byte for byte, our strict reader reads them back, and it refuses anything that
 * is not exactly what was written. The manifest authenticates itself.
 */
import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TarWriter } from "../../functions/backup/tar-writer.js";
import { paxRecord } from "../../functions/hosting/domain/git/tar-header.js";
import { readTar } from "../../functions/backup/tar-reader.js";
import { decodeManifest, encodeManifest, FORMAT, FORMAT_VERSION, MANIFEST_PATH } from "../../functions/backup/manifest.js";
import { ArchiveError } from "../../functions/backup/errors.js";
import { verifyArchive } from "../../functions/backup/verify.js";
import { WriteQueue } from "../../functions/backup/write-queue.js";
import { encodeItem } from "../../functions/backup/table-io.js";
import { writeFormat1Copy } from "./legacy-archive.js";

let dir: string;
beforeAll(() => void (dir = mkdtempSync(join(tmpdir(), "forgeline-tar-"))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const longName = `refs/heads/${"feature-".repeat(20)}ünïcode`; // > 100 bytes, one long last segment
const deepName = `${"d".repeat(60)}/${"e".repeat(60)}/${"f".repeat(60)}/${"g".repeat(90)}`; // splits into prefix + name
const veryLong = `${"x".repeat(120)}/${"y".repeat(150)}`; // no usable split: pax path

async function sampleArchive(file: string) {
  const content: Record<string, Buffer> = {
    "top/HEAD": Buffer.from("ref: refs/heads/main\n"),
    [`top/${longName}`]: Buffer.from("0123456789abcdef0123456789abcdef01234567\n"),
    [`top/${deepName}`]: Buffer.alloc(5000, 7),
    [`top/${veryLong}`]: Buffer.alloc(0),
    "top/exact": Buffer.alloc(1024, 1),
  };
  const tar = await TarWriter.create(file);
  await tar.dir("top");
  for (const [path, data] of Object.entries(content)) await tar.file(path, data);
  await tar.close();
  return content;
}

async function readAll(file: string) {
  const out: Array<{ path: string; type: string; data: Buffer }> = [];
  for await (const e of readTar(file)) {
    const parts: Buffer[] = [];
    for await (const c of e.chunks()) parts.push(c);
    out.push({ path: e.path, type: e.type, data: Buffer.concat(parts) });
  }
  return out;
}

describe("the tar writer and reader", () => {
  it("writes an archive that GNU tar lists and extracts byte for byte, long and non-ASCII names included", async () => {
    const file = join(dir, "sample.tar");
    const content = await sampleArchive(file);
    const listed = execFileSync("tar", ["tf", file], { encoding: "utf8" }).trim().split("\n");
    expect(listed).toEqual(["top/", ...Object.keys(content)]);
    const out = join(dir, "out");
    execFileSync("mkdir", ["-p", out]);
    execFileSync("tar", ["xf", file, "-C", out]);
    for (const [path, data] of Object.entries(content)) expect(readFileSync(join(out, path)).equals(data)).toBe(true);
  });

  it("reads back exactly what it wrote", async () => {
    const file = join(dir, "again.tar");
    const content = await sampleArchive(file);
    const entries = await readAll(file);
    expect(entries.map((e) => e.path)).toEqual(["top", ...Object.keys(content)]);
    for (const e of entries.slice(1)) expect(e.data.equals(content[e.path]!)).toBe(true);
  });

  it("computes pax record lengths that count themselves", () => {
    for (const value of ["a", "x".repeat(5), "y".repeat(93), "z".repeat(994), "w".repeat(9995)]) {
      const record = paxRecord("path", value);
      expect(Number(record.split(" ")[0])).toBe(Buffer.byteLength(record));
    }
  });

  it("refuses non-zero padding, a damaged or missing end marker and trailing data", async () => {
    const file = join(dir, "strict.tar");
    await sampleArchive(file);
    const good = readFileSync(file);
    const variants: Array<[string, Buffer, RegExp]> = [
      ["padding", Buffer.from(good).fill(1, 512 * 2 + 21, 512 * 2 + 22), /padding .* not zeros/],
      ["end marker", Buffer.from(good).fill(9, good.length - 10, good.length - 9), /end-of-archive marker .* not zeros/],
      ["no end marker", good.subarray(0, good.length - 1024), /truncated/],
      ["trailing data", Buffer.concat([good, Buffer.from("junk")]), /truncated|after the end-of-archive/],
      ["header", Buffer.from(good).fill(0x41, 512 + 3, 512 + 4), /header .* corrupt/],
    ];
    for (const [what, bytes, message] of variants) {
      const bad = join(dir, `bad-${what.replace(/ /g, "-")}.tar`);
      writeFileSync(bad, bytes);
      const err = await readAll(bad).then(() => undefined, (e: unknown) => e);
      expect(err, what).toBeInstanceOf(ArchiveError);
      expect((err as Error).message, what).toMatch(message);
    }
  });
});

describe("the manifest", () => {
  const base = {
    format: FORMAT,
    format_version: FORMAT_VERSION,
    created_at: "2026-01-01T00:00:00.000Z",
    source: { table: "t", storages: { default: { kind: "local" as const, replicas: 1 } } },
    counts: { items: 1, repositories: 0, files: 1, bytes: 2, dropped_items: 0 },
    table_files: ["table/items-0000.jsonl"],
    repositories: [],
    entries: [{ path: "table/items-0000.jsonl", type: "file" as const, size: 2, sha256: "a".repeat(64) }],
    archive_sha256: "b".repeat(64),
  };

  it("round-trips and authenticates itself: any altered value is detected", () => {
    const bytes = encodeManifest(base);
    expect(decodeManifest(bytes).counts.items).toBe(1);
    const altered = Buffer.from(bytes.toString("utf8").replace("2026-01-01", "2027-01-01"));
    expect(() => decodeManifest(altered)).toThrow(/fails its own checksum/);
    expect(() => decodeManifest(bytes.subarray(0, bytes.length - 5))).toThrow(/not valid JSON/);
  });

  it("refuses another format version with a clear message", () => {
    const future = Buffer.from(encodeManifest(base).toString("utf8").replace(`"format_version": ${FORMAT_VERSION}`, '"format_version": 99'));
    expect(() => decodeManifest(future)).toThrow(/format version 99; this restore reads versions 1 and 2/);
  });
});

/** A small whole archive as `backup` lays it out: one repository, one table file, the manifest. */
async function smallBackup(file: string) {
  const tar = await TarWriter.create(file, { firstComment: `${FORMAT} ${FORMAT_VERSION}` });
  const prefix = "repositories/project/1";
  const entries = [await tar.dir(prefix)];
  for (const d of ["objects", "refs", "refs/heads"]) entries.push(await tar.dir(`${prefix}/${d}`));
  entries.push(await tar.file(`${prefix}/HEAD`, Buffer.from("ref: refs/heads/main\n")));
  const bigFile = join(dir, "big.pack");
  writeFileSync(bigFile, Buffer.alloc(9 << 20, 5));
  entries.push(await tar.fileFromDisk(`${prefix}/objects/big.pack`, bigFile));
  const project = { pk: { S: "PROJECT#1" }, sk: { S: "PROJECT" }, storage: { S: "default" }, relativePath: { S: "@hashed/x.git" } };
  entries.push(await tar.file("table/items-0000.jsonl", Buffer.from(encodeItem(project) + "\n")));
  const files = entries.filter((e) => e.type === "file");
  const bytes = files.reduce((n, e) => n + e.size, 0);
  const repoBytes = bytes - files.at(-1)!.size;
  await tar.file(
    MANIFEST_PATH,
    encodeManifest({
      format: FORMAT,
      format_version: FORMAT_VERSION,
      created_at: new Date().toISOString(),
      source: { table: "t", storages: { default: { kind: "local", replicas: 1 } } },
      counts: { items: 1, repositories: 1, files: files.length, bytes, dropped_items: 0 },
      table_files: ["table/items-0000.jsonl"],
      repositories: [{ kind: "project", id: 1, storage: "default", relative_path: "@hashed/x.git", checksum: "0".repeat(40), files: files.length - 1, bytes: repoBytes }],
      entries: entries.map(({ path, type, size, sha256 }) => ({ path, type, size, sha256 })),
      archive_sha256: tar.sealPrefix(),
    }),
  );
  await tar.close();
  return tar;
}

describe("archive formats", () => {
  it("verifies a format 2 archive, and a format 1 copy of it as older versions wrote them", async () => {
    const current = join(dir, "format2.tar");
    await smallBackup(current);
    const m2 = await verifyArchive(current);
    expect(m2.format_version).toBe(2);
    const legacy = join(dir, "format1.tar");
    await writeFormat1Copy(current, legacy);
    const m1 = await verifyArchive(legacy);
    expect(m1.format_version).toBe(1);
    expect(m1.entries).toEqual(m2.entries);
    // GNU tar lists both the same way (the marker is a pax comment, which tar ignores).
    const list = (f: string) => execFileSync("tar", ["tf", f], { encoding: "utf8" });
    expect(list(current)).toBe(list(legacy));
  });

  it("detects an altered header or padding in either format, content aside", async () => {
    const current = join(dir, "format2-b.tar");
    await smallBackup(current);
    const legacy = join(dir, "format1-b.tar");
    await writeFormat1Copy(current, legacy);
    for (const file of [current, legacy]) {
      const good = readFileSync(file);
      // The HEAD file's padding: zero bytes right after its 21 bytes of content.
      const head = good.indexOf(Buffer.from("ref: refs/heads/main\n"));
      const bad = join(dir, "altered.tar");
      writeFileSync(bad, Buffer.from(good).fill(1, head + 30, head + 31));
      await expect(verifyArchive(bad)).rejects.toThrow(/padding .* not zeros/);
      // A mode changed in a header, its checksum fixed up: only archive_sha256 can tell.
      const headerAt = head - 512;
      const forged = Buffer.from(good);
      forged.write("0000600", headerAt + 100, "latin1");
      forged.fill(0x20, headerAt + 148, headerAt + 156);
      let sum = 0;
      for (let i = 0; i < 512; i++) sum += forged[headerAt + i]!;
      forged.write(sum.toString(8).padStart(6, "0") + "\0 ", headerAt + 148, "latin1");
      writeFileSync(bad, forged);
      await expect(verifyArchive(bad)).rejects.toThrow(/archive_sha256/);
    }
  });

  it("refuses a format 2 manifest on an archive without the format marker", async () => {
    const current = join(dir, "format2-c.tar");
    await smallBackup(current);
    const good = readFileSync(current);
    // Drop the first entry's pax header (the marker) and its block: the rest is a valid tar.
    const paxSize = parseInt(good.subarray(124, 136).toString("latin1"), 8);
    const unmarked = join(dir, "unmarked.tar");
    writeFileSync(unmarked, good.subarray(512 + Math.ceil(paxSize / 512) * 512));
    await expect(verifyArchive(unmarked)).rejects.toThrow(/marker of format version 2/);
  });
});

describe("bounded memory", () => {
  it("copies and reads a large file through fixed-size buffers, never holding it whole", async () => {
    const file = join(dir, "bounded.tar");
    const big = join(dir, "bounded.bin");
    const size = 40 << 20;
    writeFileSync(big, Buffer.alloc(size, 9));
    const tar = await TarWriter.create(file);
    await tar.fileFromDisk("big.bin", big);
    await tar.close();
    expect(tar.stats.maxHeldBytes).toBeLessThanOrEqual(8 << 20);
    const stats = { maxChunkBytes: 0 };
    let total = 0;
    let largest = 0;
    for await (const e of readTar(file, { stats })) {
      for await (const c of e.chunks()) {
        total += c.length;
        largest = Math.max(largest, c.length);
      }
    }
    expect(total).toBe(size);
    expect(largest).toBeLessThanOrEqual(4 << 20);
    expect(stats.maxChunkBytes).toBeLessThanOrEqual(4 << 20);
  });

  it("holds at most its byte budget of restore writes in flight", async () => {
    const queue = new WriteQueue(16, 8 << 20);
    const done: Array<Promise<void>> = [];
    let running = 0;
    let mostRunning = 0;
    for (let i = 0; i < 40; i++) {
      const op = async () => {
        mostRunning = Math.max(mostRunning, ++running);
        await new Promise((r) => setImmediate(r));
        running--;
      };
      done.push((await queue.add(3 << 20, op)).done);
    }
    await Promise.all(done);
    expect(queue.stats.maxHeldBytes).toBeLessThanOrEqual(8 << 20);
    expect(queue.stats.maxHeldBytes).toBeGreaterThan(3 << 20); // it does overlap writes
    expect(mostRunning).toBeGreaterThan(1);
  });
});
