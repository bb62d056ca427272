/**
 * Damaged copies of a good archive — one flipped bit in each kind of place, and cuts at several
 * points — each with the message restore must give. Offsets come from the archive's own entries.
 * And hostile ones, rewritten whole with a self-consistent manifest (`writeArchive`).
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { decodeManifest, encodeManifest, FORMAT_MARKER, MANIFEST_PATH, repositoryPrefix, type Manifest } from "../../functions/backup/manifest.js";
import { readTar } from "../../functions/backup/tar-reader.js";
import { TarWriter, type WrittenEntry } from "../../functions/backup/tar-writer.js";

export interface Damaged {
  what: string;
  file: string;
  message: RegExp;
}

/** Byte offset of each entry's first header, found by walking the ustar headers. */
function headerOffsets(bytes: Buffer): Map<string, number> {
  const out = new Map<string, number>();
  for (let at = 0; at + 512 <= bytes.length; ) {
    const block = bytes.subarray(at, at + 512);
    if (block.every((b) => b === 0)) break;
    const name = block.subarray(0, 100).toString("utf8").replace(/\0.*$/s, "");
    const prefix = block.subarray(345, 500).toString("utf8").replace(/\0.*$/s, "");
    const size = parseInt(block.subarray(124, 136).toString("latin1").replace(/\0.*$/s, "").trim(), 8);
    out.set(prefix ? `${prefix}/${name}` : name, at);
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return out;
}

export function damagedCopies(file: string, dir: string): Damaged[] {
  const good = readFileSync(file);
  const offsets = headerOffsets(good);
  const find = (test: (path: string) => boolean) => [...offsets].find(([p]) => test(p))![1];
  const object = find((p) => /\/objects\/[0-9a-f]{2}\/[0-9a-f]{38}$/.test(p));
  const table = find((p) => p === "table/items-0000.jsonl");
  const manifest = find((p) => p === "manifest.json");
  const flip = (at: number) => {
    const copy = Buffer.from(good);
    copy[at] = copy[at]! ^ 0x01;
    return copy;
  };
  const variants: Array<[string, Buffer, RegExp]> = [
    ["a flipped bit in a repository object", flip(object + 512 + 3), /fails its sha256 checksum/],
    ["a flipped bit in a table file", flip(table + 512 + 40), /items-0000\.jsonl/],
    ["a flipped bit in a tar header", flip(object + 20), /header at byte \d+ is corrupt/],
    ["a flipped bit in the manifest", flip(manifest + 512 + 200), /manifest\.json/],
    ["a cut in the middle", good.subarray(0, Math.floor(good.length / 2)), /truncated/],
    ["a cut just before the manifest", good.subarray(0, manifest), /truncated/],
    ["a missing end-of-archive marker", good.subarray(0, good.length - 1024), /truncated/],
  ];
  return variants.map(([what, bytes, message], i) => {
    const path = join(dir, `damaged-${i}.tar`);
    writeFileSync(path, bytes);
    return { what, file: path, message };
  });
}

/** Repositories or temporary folders under the data folder's storages (none on an empty instance). */
export function storageLeftovers(dataDir: string): string[] {
  const root = join(dataDir, "storages");
  const found: string[] = [];
  const visit = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (!e.isDirectory()) continue;
      if (e.name.endsWith(".git") || e.name.includes("tmp_forgeline")) found.push(join(dir, e.name));
      else visit(join(dir, e.name));
    }
  };
  try {
    visit(root);
  } catch {
    /* no storages folder yet */
  }
  return found;
}

export interface ArchivedEntry {
  path: string;
  type: "file" | "dir";
  mode: number;
  mtime: number;
  data: Buffer;
}

/** Every entry of a (small, test-sized) archive with its content, and its manifest. */
export async function readArchive(file: string): Promise<{ entries: ArchivedEntry[]; manifest: Manifest }> {
  const entries: ArchivedEntry[] = [];
  let manifest: Manifest | undefined;
  for await (const e of readTar(file)) {
    const parts: Buffer[] = [];
    for await (const c of e.chunks()) parts.push(Buffer.from(c));
    const data = Buffer.concat(parts);
    if (e.path === MANIFEST_PATH) manifest = decodeManifest(data);
    else entries.push({ path: e.path, type: e.type, mode: e.mode, mtime: e.mtime, data });
  }
  return { entries, manifest: manifest! };
}

/**
 * A hostile archive that no byte-level check can tell from a real one: `entries` written in the
 * order given, with a manifest recomputed to match them (entry list, counts, each repository's files
 * and bytes, archive_sha256, manifest_sha256). The repository records — storage, path, refs
 * checksum — are `base`'s unless `edit` changes them.
 */
export async function writeArchive(file: string, entries: ArchivedEntry[], base: Manifest, edit: (m: Manifest) => void = () => {}): Promise<string> {
  const tar = await TarWriter.create(file, { firstComment: FORMAT_MARKER });
  const written: WrittenEntry[] = [];
  for (const e of entries) written.push(e.type === "dir" ? await tar.dir(e.path, e.mode, e.mtime) : await tar.file(e.path, e.data, e.mode, e.mtime));
  const files = written.filter((e) => e.type === "file");
  const tables = entries.filter((e) => e.path.startsWith("table/"));
  const manifest: Manifest = structuredClone(base);
  edit(manifest);
  manifest.repositories = manifest.repositories.map((r) => {
    const own = files.filter((e) => e.path.startsWith(`${repositoryPrefix(r)}/`));
    return { ...r, files: own.length, bytes: own.reduce((n, e) => n + e.size, 0) };
  });
  manifest.table_files = tables.map((e) => e.path);
  manifest.counts = {
    ...manifest.counts,
    items: tables.reduce((n, e) => n + e.data.toString("utf8").split("\n").filter(Boolean).length, 0),
    repositories: manifest.repositories.length,
    files: files.length,
    bytes: files.reduce((n, e) => n + e.size, 0),
  };
  manifest.entries = written.map(({ path, type, size, sha256 }) => ({ path, type, size, sha256 }));
  const { manifest_sha256: _, ...unsigned } = manifest;
  await tar.file(MANIFEST_PATH, encodeManifest({ ...unsigned, archive_sha256: tar.sealPrefix() }));
  await tar.close();
  return file;
}

/** `edit` applied to every table line (as a parsed DynamoDB JSON item); a line it returns undefined for is dropped. */
export function editItems(entries: ArchivedEntry[], edit: (item: Record<string, any>) => Record<string, any> | Array<Record<string, any>> | undefined): ArchivedEntry[] {
  return entries.map((e) => {
    if (!e.path.startsWith("table/")) return e;
    const lines = e.data.toString("utf8").split("\n").filter(Boolean);
    const out = lines.flatMap((line) => [edit(JSON.parse(line))].flat().filter(Boolean).map((item) => JSON.stringify(item)));
    return { ...e, data: Buffer.from(out.map((l) => `${l}\n`).join("")) };
  });
}
