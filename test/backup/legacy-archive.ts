/**
 * Format 1 archives, as `npm run backup` wrote them before format 2: the same entries, headers
 * from the dependency-free ustar encoder it used (now `hosting/domain/git/tar-header.ts`, byte for
 * byte the same), no format marker, and an `archive_sha256` over every byte before the manifest.
 * Made from a current archive, so tests can prove that old archives still verify and restore.
 */
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { decodeManifest, encodeManifest, MANIFEST_PATH, type Manifest } from "../../functions/backup/manifest.js";
import { BLOCK, encodeHeader, padding } from "../../functions/hosting/domain/git/tar-header.js";
import { readArchive } from "./damage.js";

export async function writeFormat1Copy(current: string, legacy: string): Promise<Manifest> {
  const { entries, manifest } = await readArchive(current);
  const parts = entries.flatMap((e) => [...encodeHeader({ path: e.path, type: e.type, size: e.data.length, mode: e.mode, mtime: e.mtime }), e.data, Buffer.alloc(padding(e.data.length))]);
  const prefix = Buffer.concat(parts);
  const { manifest_sha256: _, ...rest } = manifest;
  const old = encodeManifest({ ...rest, format_version: 1, archive_sha256: createHash("sha256").update(prefix).digest("hex") });
  const tail = [...encodeHeader({ path: MANIFEST_PATH, type: "file", size: old.length, mode: 0o644, mtime: Date.now() / 1000 }), old, Buffer.alloc(padding(old.length)), Buffer.alloc(BLOCK * 2)];
  writeFileSync(legacy, Buffer.concat([prefix, ...tail]));
  return decodeManifest(old);
}
