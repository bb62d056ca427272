/**
 * Writing one archived repository into the staging area (`staging.ts`), on every replica of its
 * (mapped) storage: its files in the background, bounded by the shared `WriteQueue`, then every
 * copy's refs checksum must equal the one recorded at backup. Nothing here is live: making it live
 * is one rename per copy, once every repository and the table are staged (`restore-commit.ts`).
 */
import { chmod, mkdir, open, writeFile, type FileHandle } from "node:fs/promises";
import { dirname, join } from "node:path";
import { checksumOfDir } from "../hosting/domain/git/checksum.js";
import { faultPoint } from "../platform/fault-injection.js";
import { containerLabel } from "./containers.js";
import { BackupError } from "./errors.js";
import type { RepositoryRecord } from "./manifest.js";
import type { StagingArea } from "./staging.js";
import type { WriteQueue } from "./write-queue.js";

/** Files up to this size are gathered whole and written with one call per replica. */
const WHOLE_FILE = 1 << 20;

export class RepositoryRestore {
  /** The copies being assembled, one per replica. */
  readonly temps: string[];
  /** Each directory's creation in every copy, which the files inside it wait for. */
  private readonly dirs = new Map<string, Promise<void>>();
  /** This repository's background writes; `finish` waits for all of them. */
  private readonly pending: Array<Promise<void>> = [];

  constructor(
    readonly record: RepositoryRecord,
    readonly storage: string,
    staging: StagingArea,
    private readonly queue: WriteQueue,
  ) {
    this.temps = staging.staged(storage, record.relative_path);
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
      closed.catch(() => undefined); // reported by finish (or swallowed by settle), not as unhandled
      this.pending.push(closed);
    }
  }

  /** Waits for this repository's writes and verifies each copy's checksum. */
  async finish(): Promise<void> {
    await Promise.all(this.pending);
    this.queue.check();
    const sums = await Promise.all(this.temps.map((t) => checksumOfDir(t)));
    const bad = sums.findIndex((s) => s !== this.record.checksum);
    if (bad >= 0) {
      throw new BackupError(`${containerLabel(this.record)}'s repository, written for ${this.storage}, has checksum ${sums[bad]}, the archive recorded ${this.record.checksum}. Nothing was restored`);
    }
    await faultPoint("restoreRepository", "copied", { kind: this.record.kind, id: this.record.id });
  }

  /** Lets every background write end (the staging area is removed after). */
  async settle(): Promise<void> {
    await Promise.all(this.pending.map((p) => p.catch(() => undefined)));
  }
}

async function writeAt(fh: FileHandle, chunk: Buffer, position: number): Promise<void> {
  for (let done = 0; done < chunk.length; ) done += (await fh.write(chunk, done, chunk.length - done, position + done)).bytesWritten;
}
