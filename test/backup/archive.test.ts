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
import { TarWriter, paxRecord } from "../../functions/backup/tar.js";
import { readTar } from "../../functions/backup/tar-reader.js";
import { decodeManifest, encodeManifest, FORMAT, FORMAT_VERSION } from "../../functions/backup/manifest.js";
import { ArchiveError } from "../../functions/backup/errors.js";

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
    expect(() => decodeManifest(future)).toThrow(/format version 99; this restore reads version 1/);
  });
});
