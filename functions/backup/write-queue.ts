/**
 * Restore's background writes: files go to disk while the archive is read on, with at most
 * `maxOps` operations running and `maxBytes` of their content held. The first failure is kept and
 * reported by the next `add` or by `check` (never as an unhandled rejection).
 */
export class WriteQueue {
  private running = 0;
  private held = 0;
  private waiters: Array<() => void> = [];
  private failure: unknown;
  /** The most content bytes held at once; a test reads it to prove memory stays bounded. */
  readonly stats = { maxHeldBytes: 0 };

  constructor(
    private readonly maxOps: number,
    readonly maxBytes: number,
  ) {}

  /**
   * Waits for room, starts `op` in the background and returns its end, `done` (which never
   * rejects; wrapped, because an async function would otherwise wait for it).
   */
  async add(bytes: number, op: () => Promise<void>): Promise<{ done: Promise<void> }> {
    while (this.running >= this.maxOps || (this.running > 0 && this.held + bytes > this.maxBytes)) await new Promise<void>((wake) => this.waiters.push(wake));
    this.check();
    this.running++;
    this.held += bytes;
    this.stats.maxHeldBytes = Math.max(this.stats.maxHeldBytes, this.held);
    const done = op().then(
      () => this.settle(bytes),
      (err: unknown) => {
        this.failure ??= err;
        this.settle(bytes);
      },
    );
    return { done };
  }

  /** Throws the first failure of any operation so far. */
  check(): void {
    if (this.failure) throw this.failure;
  }

  private settle(bytes: number): void {
    this.running--;
    this.held -= bytes;
    for (const wake of this.waiters.splice(0)) wake();
  }
}
