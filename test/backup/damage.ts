/**
 * Damaged copies of a good archive — one flipped bit in each kind of place, and cuts at several
 * points — each with the message restore must give. Offsets come from the archive's own entries.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

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
