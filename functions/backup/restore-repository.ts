/**
 * Writing one archived repository into every replica of its (mapped) storage, the way
 * `hosting/domain/git/replicate.ts` writes a moved one: each copy is assembled in a sibling
 * temporary folder, renamed into place (replacing whatever directory was there), and then every
 * replica's refs checksum must equal the one recorded at backup, or all copies are removed again.
 */
import { randomBytes } from "node:crypto";
import { chmod, mkdir, open, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { replicaChecksums, replicaPaths } from "../hosting/domain/git/index.js";
import { TEMP_PREFIX } from "../hosting/domain/git/fs-util.js";
import { moveIntoPlace } from "../hosting/domain/git/replicate.js";
import { BackupError } from "./errors.js";
import type { RepositoryRecord } from "./manifest.js";

export class RepositoryRestore {
  readonly targets: string[];
  private readonly temps: string[];
  private readonly made = new Set<string>();

  constructor(
    readonly record: RepositoryRecord,
    readonly storage: string,
  ) {
    this.targets = replicaPaths(storage, record.relative_path);
    const suffix = `${TEMP_PREFIX}restore_${process.pid}_${randomBytes(6).toString("hex")}`;
    this.temps = this.targets.map((t) => `${t}.${suffix}`);
  }

  async begin(): Promise<void> {
    await Promise.all(this.temps.map((t) => mkdir(t, { recursive: true })));
  }

  async dir(inner: string, mode: number): Promise<void> {
    await Promise.all(this.temps.map((t) => mkdir(join(t, inner), { recursive: true, mode: mode & 0o7777 || 0o755 })));
    this.made.add(inner);
  }

  /** Streams one file into every temporary copy at once. */
  async file(inner: string, mode: number, chunks: AsyncIterable<Buffer>): Promise<void> {
    // Directory entries come before their files, so this mkdir is only for hand-made archives.
    const parent = dirname(inner);
    if (parent !== "." && !this.made.has(parent)) await this.dir(parent, 0o755);
    const perm = mode & 0o777 || 0o644;
    const handles = await Promise.all(this.temps.map((t) => open(join(t, inner), "wx", perm)));
    try {
      for await (const chunk of chunks) await Promise.all(handles.map((h) => h.write(chunk, 0, chunk.length)));
    } finally {
      await Promise.all(handles.map((h) => h.close()));
    }
    // `open` applies the umask; restore the recorded mode only where that changed it.
    if ((perm & ~process.umask()) !== perm) await Promise.all(this.temps.map((t) => chmod(join(t, inner), perm)));
  }

  /** Renames every copy into place and verifies each replica's checksum. */
  async commit(): Promise<void> {
    for (let i = 0; i < this.targets.length; i++) await moveIntoPlace(this.temps[i]!, this.targets[i]!);
    const sums = await replicaChecksums(this.storage, this.record.relative_path);
    const bad = sums.findIndex((s) => s !== this.record.checksum);
    if (bad >= 0) {
      await Promise.all(this.targets.map((t) => rm(t, { recursive: true, force: true })));
      throw new BackupError(
        `${this.record.kind} ${this.record.id}'s restored repository on ${this.storage} has checksum ${sums[bad]}, the archive recorded ${this.record.checksum}; it was removed again`,
      );
    }
  }

  async abort(): Promise<void> {
    await Promise.all(this.temps.map((t) => rm(t, { recursive: true, force: true })));
  }
}
