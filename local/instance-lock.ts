/**
 * One instance per data folder. Two DynamoDB Local processes on one database file would corrupt it,
 * so a persistent runtime holds `<data>/runtime.json` from its first step to its stop. The same file,
 * once the runtime serves, tells the operator CLIs (backup, restore, inventory, retention) where to
 * join it.
 *
 * A lock is stale, and is taken over with a notice, when its process is gone, when the pid now
 * belongs to another process (Linux: the process start time differs), or when the file was copied
 * here from another folder together with the data (the folder's identity differs).
 */
import { readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { invokedAs, OperatorError } from "./operator-errors.js";
import { processRunning } from "../functions/platform/process-alive.js";

/** Written while a persistent runtime runs, so CLIs (backup, restore, inventory) can join it. */
export interface RuntimeInfo {
  pid: number;
  /** The process's start time in clock ticks since boot (Linux), to tell a reused pid apart. */
  pidStartedAt?: string;
  /** The data folder this lock is for, as a path and as device:inode. */
  dataDir?: string;
  dataDirId?: string;
  /** Set once the runtime serves. */
  baseUrl?: string;
  env?: Record<string, string>;
}

/** The variables through which a runtime tells its handlers where the stand-ins and links are. */
export const RUNTIME_ENV = /^(AWS_|SST_RESOURCE_|FORGELINE_)/;

export const runtimeInfoFile = (dataDir: string) => join(resolve(dataDir), "runtime.json");

/** The running instance on this data folder, if any, once it serves (a stale file is ignored). */
export function runningInstance(dataDir: string): (RuntimeInfo & { baseUrl: string; env: Record<string, string> }) | undefined {
  const info = lockHolder(dataDir);
  return info?.baseUrl && info.env ? (info as RuntimeInfo & { baseUrl: string; env: Record<string, string> }) : undefined;
}

/** The live holder of this folder's lock, starting or serving; undefined when none or stale. */
function lockHolder(dataDir: string): RuntimeInfo | undefined {
  const info = readLock(dataDir);
  return info && !staleReason(info, dataDir) ? info : undefined;
}

/**
 * Takes the folder's lock for this process, or says (as one line) who holds it. `notice` is told
 * when a stale lock is taken over.
 */
export function acquireInstanceLock(dataDir: string, notice: (line: string) => void): { publish(info: Pick<RuntimeInfo, "baseUrl" | "env">): void; release(): void } {
  const dir = resolve(dataDir);
  const file = runtimeInfoFile(dir);
  const mine: RuntimeInfo = { pid: process.pid, pidStartedAt: processStartTime(process.pid), dataDir: dir, dataDirId: folderId(dir) };
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(file, JSON.stringify(mine, null, 2), { mode: 0o600, flag: "wx" });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST" || attempt > 0) throw err;
    }
    const held = readLock(dir);
    const stale = held ? staleReason(held, dir) : "it is unreadable";
    if (!stale && held && held.pid !== process.pid) {
      const where = held.baseUrl ? ` at ${held.baseUrl}` : " (still starting)";
      throw new OperatorError(
        `the data folder ${dir} is in use by another Forgeline instance (pid ${held.pid})${where}`,
        `Stop it first (Ctrl-C in its terminal, or: kill ${held.pid}), or use another folder: FORGELINE_DATA_DIR=<folder> ${invokedAs()}`,
      );
    }
    if (stale) notice(`Notice: taking over ${file} from pid ${held?.pid ?? "?"}: ${stale}.`);
    rmSync(file, { force: true });
  }
  return {
    publish(info) {
      // Replaced whole (write, then rename), so a joining CLI never reads half a file.
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify({ ...mine, ...info }, null, 2), { mode: 0o600 });
      renameSync(tmp, file);
    },
    release() {
      const held = readLock(dir);
      if (held?.pid === process.pid) rmSync(file, { force: true });
    },
  };
}

function readLock(dataDir: string): RuntimeInfo | undefined {
  try {
    return JSON.parse(readFileSync(runtimeInfoFile(dataDir), "utf8")) as RuntimeInfo;
  } catch {
    return undefined;
  }
}

/** Why a lock no longer holds, or undefined while its holder runs on this very folder. */
function staleReason(info: RuntimeInfo, dataDir: string): string | undefined {
  if (!Number.isInteger(info.pid) || !processRunning(info.pid)) return "that process is no longer running (left by a crash or a kill)";
  if (info.pidStartedAt && processStartTime(info.pid) !== info.pidStartedAt) return "that pid now belongs to another process";
  if (info.dataDirId && info.dataDirId !== folderId(resolve(dataDir))) return "the lock was copied here from another data folder";
  return undefined;
}

/** Field 22 of /proc/<pid>/stat (after the parenthesised command name); undefined off Linux. */
function processStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
}

function folderId(dir: string): string {
  const s = statSync(dir);
  return `${s.dev}:${s.ino}`;
}
