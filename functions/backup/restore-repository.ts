/**
 * Writing one archived repository into every replica of its (mapped) storage, the way
 * `hosting/domain/git/replicate.ts` writes a moved one: each copy is assembled in a sibling
 * temporary folder, renamed into place (replacing whatever directory was there), and then every
 * replica's refs checksum must equal the one recorded at backup, or all copies are removed again.
 */
import { randomBytes } from "node:crypto";
import { chmod, mkdir, open, rm, writeFile, type FileHandle } from "node:fs/promises";
import { dirname, join } from "node:path";
import { replicaChecksums, replicaPaths } from "../hosting/domain/git/index.js";
import { TEMP_PREFIX } from "../hosting/domain/git/fs-util.js";
import { moveIntoPlace } from "../hosting/domain/git/replicate.js";
import { BackupError } from "./errors.js";
import type { RepositoryRecord } from "./manifest.js";
import type { WriteQueue } from "./write-queue.js";

/** Files up to this size are gathered whole and written with one call per replica. */
const WHOLE_FILE = 1 << 20;

export class RepositoryRestore {
  readonly targets: string[];
  private readonly temps: string[];
  /** Each directory's creation in every copy, which the files inside it wait for. */
  private readonly dirs = new Map<string, Promise<void>>();
  /** This repository's background writes; `commit` waits for all of them. */
  private readonly pending: Array<Promise<void>> = [];

  constructor(
    readonly record: RepositoryRecord,
    readonly storage: string,
    private readonly queue: WriteQueue,
  ) {
    this.targets = replicaPaths(storage, record.relative_path);
    const suffix = `${TEMP_PREFIX}restore_${process.pid}_${randomBytes(6).toString("hex")}`;
    this.temps = this.targets.map((t) => `${t}.${suffix}`);
  }

  async begin(): Promise<void> {
    await Promise.all(this.temps.map((t) => mkdir(t, { recursive: true })));
  }

  async dir(inner: string, mode: number): Promise<void> {
    const { done: made } = await this.queue.add(0, async () => {
      await Promise.all(this.temps.map((t) => mkdir(join(t, inner), { recursive: true, mode: mode & 0o7777 || 0o755 })));
    });
    this.dirs.set(inner, made);
    this.pending.push(made);
  }

  /** Directory entries come before their files; a hand-made archive may lack them. */
  private async parentOf(inner: string): Promise<Promise<void>> {
    const parent = dirname(inner);
    if (parent === ".") return Promise.resolve();
    if (!this.dirs.has(parent)) await this.dir(parent, 0o755);
    return this.dirs.get(parent)!;
  }

  /**
   * One file into every temporary copy, written in the background: a small file whole, a large one
   * chunk by chunk at its offset, so the archive is read on while earlier content reaches the disk.
   */
  async file(inner: string, mode: number, size: number, chunks: AsyncIterable<Buffer>): Promise<void> {
    const parentReady = await this.parentOf(inner);
    const perm = mode & 0o777 || 0o644;
    // `open` applies the umask; restore the recorded mode only where that changed it.
    const fixMode = (perm & ~process.umask()) !== perm ? () => Promise.all(this.temps.map((t) => chmod(join(t, inner), perm))) : async () => [];
    if (size <= WHOLE_FILE) {
      const parts: Buffer[] = [];
      for await (const c of chunks) parts.push(c);
      const data = Buffer.concat(parts, size); // a copy: the slices would pin the reader's whole pieces
      const { done } = await this.queue.add(size, async () => {
        await parentReady;
        await Promise.all(this.temps.map((t) => writeFile(join(t, inner), data, { mode: perm, flag: "wx" })));
        await fixMode();
      });
      this.pending.push(done);
      return;
    }
    await parentReady;
    const handles = await Promise.all(this.temps.map((t) => open(join(t, inner), "wx", perm)));
    const writes: Array<Promise<void>> = [];
    let position = 0;
    try {
      for await (const chunk of chunks) {
        const at = position;
        position += chunk.length;
        // A chunk is a slice of one piece the reader allocated: count the piece it keeps alive.
        const { done } = await this.queue.add(chunk.buffer.byteLength, async () => void (await Promise.all(handles.map((h) => writeAt(h, chunk, at)))));
        writes.push(done);
      }
    } finally {
      const closed = Promise.all(writes).then(async () => {
        await Promise.all(handles.map((h) => h.close()));
        await fixMode();
      });
      closed.catch(() => undefined); // reported by commit (or swallowed by abort), not as unhandled
      this.pending.push(closed);
    }
  }

  /** Waits for this repository's writes, renames every copy into place and verifies each replica's checksum. */
  async commit(): Promise<void> {
    await Promise.all(this.pending);
    this.queue.check();
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
    await Promise.all(this.pending.map((p) => p.catch(() => undefined)));
    await Promise.all(this.temps.map((t) => rm(t, { recursive: true, force: true })));
  }
}

async function writeAt(fh: FileHandle, chunk: Buffer, position: number): Promise<void> {
  for (let done = 0; done < chunk.length; ) done += (await fh.write(chunk, done, chunk.length - done, position + done)).bytesWritten;
}
