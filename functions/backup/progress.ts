/**
 * Progress on stderr (stdout is left for the summary): on a terminal, or with `--progress`, a
 * one-line bar (`\r[#####     ]  45% Copying repositories 45/100 · 12.3 MiB`) redrawn at most ten
 * times a second; otherwise (a log, a pipe, CI) plain lines — each phase's start, a line per
 * quarter done at most every few seconds, and its end with its duration — that read well in a file.
 */
const WIDTH = 30;

export function formatBytes(n: number): string {
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) [n, i] = [n / 1024, i + 1];
  return `${n.toFixed(i === 0 ? 0 : 1)} ${units[i]}`;
}

export interface ProgressSink {
  /** Starts a phase; `total` 0 means unknown (the bar then shows a count only). */
  phase(label: string, total: number, unit?: "items" | "bytes"): void;
  update(done: number, detail?: string): void;
  add(n: number, detail?: string): void;
  end(): void;
}

export const silentProgress: ProgressSink = { phase() {}, update() {}, add() {}, end() {} };

export class Progress implements ProgressSink {
  private label = "";
  private total = 0;
  private done = 0;
  private unit: "items" | "bytes" = "items";
  private detail = "";
  private lastDraw = 0;
  private active = false;

  constructor(private readonly out: NodeJS.WriteStream = process.stderr) {}

  /** The bar when stderr is a terminal or when forced; plain lines otherwise. */
  static create(forced: boolean): ProgressSink {
    return forced || process.stderr.isTTY ? new Progress() : new ProgressLines();
  }

  phase(label: string, total: number, unit: "items" | "bytes" = "items"): void {
    if (this.active) this.end();
    Object.assign(this, { label, total, unit, done: 0, detail: "", active: true, lastDraw: 0 });
    this.draw(true);
  }

  update(done: number, detail?: string): void {
    this.done = done;
    if (detail !== undefined) this.detail = detail;
    this.draw(false);
  }

  add(n: number, detail?: string): void {
    this.update(this.done + n, detail);
  }

  end(): void {
    if (!this.active) return;
    if (this.total > 0) this.done = Math.max(this.done, this.total);
    this.draw(true);
    this.out.write("\n");
    this.active = false;
  }

  private draw(force: boolean): void {
    const now = Date.now();
    if (!force && now - this.lastDraw < 100) return;
    this.lastDraw = now;
    const amount = (n: number) => (this.unit === "bytes" ? formatBytes(n) : String(n));
    const ratio = this.total > 0 ? Math.min(1, this.done / this.total) : 0;
    const filled = Math.round(ratio * WIDTH);
    const bar = this.total > 0 ? `[${"#".repeat(filled)}${" ".repeat(WIDTH - filled)}] ${String(Math.floor(ratio * 100)).padStart(3)}%` : `[${"?".repeat(3).padEnd(WIDTH)}]     `;
    const count = this.total > 0 ? `${amount(this.done)}/${amount(this.total)}` : amount(this.done);
    const line = `${bar} ${this.label} ${count}${this.detail ? ` · ${this.detail}` : ""}`;
    const columns = this.out.columns || 120;
    this.out.write(`\r${line.slice(0, columns - 1).padEnd(Math.min(columns - 1, 100))}`);
  }
}

/** Plain progress lines, for output that is not a terminal. */
export class ProgressLines implements ProgressSink {
  private label = "";
  private total = 0;
  private done = 0;
  private unit: "items" | "bytes" = "items";
  private started = 0;
  private lastLine = 0;
  private nextQuarter = 1;
  private active = false;

  constructor(
    private readonly write: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
    private readonly minIntervalMs = 5000,
  ) {}

  private amount(n: number): string {
    return this.unit === "bytes" ? formatBytes(n) : String(n);
  }

  phase(label: string, total: number, unit: "items" | "bytes" = "items"): void {
    if (this.active) this.end();
    Object.assign(this, { label, total, unit, done: 0, started: Date.now(), lastLine: Date.now(), nextQuarter: 1, active: true });
    this.write(`${label}${total > 0 ? ` (${this.amount(total)})` : ""}…`);
  }

  update(done: number): void {
    this.done = done;
    if (this.total <= 0 || done < (this.total * this.nextQuarter) / 4) return;
    while (this.nextQuarter < 4 && done >= (this.total * this.nextQuarter) / 4) this.nextQuarter++;
    if (done >= this.total || Date.now() - this.lastLine < this.minIntervalMs) return;
    this.lastLine = Date.now();
    this.write(`${this.label}: ${Math.floor((done / this.total) * 100)}% (${this.amount(done)}/${this.amount(this.total)})`);
  }

  add(n: number): void {
    this.update(this.done + n);
  }

  end(): void {
    if (!this.active) return;
    this.active = false;
    const done = this.total > 0 ? Math.max(this.done, this.total) : this.done;
    this.write(`${this.label}: done, ${this.amount(done)} in ${((Date.now() - this.started) / 1000).toFixed(1)} s`);
  }
}
