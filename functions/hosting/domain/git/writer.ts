/**
 * Who is writing to a repository right now, as the code below the write path sees it, without every
 * git function taking it as an argument:
 * - `owner` goes into the names of the temporary folders it creates (`<repo>.tmp_forgeline_<owner>_<hex>`),
 *   so a crashed writer's leftovers say whose they are, a resumed move removes its own, and a sweep
 *   can tell whether their owner still runs;
 * - `fence` is called by a ref update while it holds the ref's lock, right before the ref moves: it
 *   throws when the writer no longer holds its repository write lease (expired, taken over), so a
 *   writer that lost its lease cannot move a ref;
 * - `heldSince` is when that lease was taken: a ref lock file older than it was left by a writer
 *   that held the lease before (every ref writer holds it), i.e. a dead one.
 */
import { AsyncLocalStorage } from "node:async_hooks";

export interface Writer {
  owner: string;
  fence?: () => Promise<void>;
  heldSince?: number;
}

const scope = new AsyncLocalStorage<Writer>();

export function runAsWriter<T>(writer: Writer, fn: () => Promise<T>): Promise<T> {
  return scope.run(writer, fn);
}

export const currentWriter = (): Writer | undefined => scope.getStore();

/** Owner names end up in folder names: letters, digits and dashes only. */
export const ownerName = (raw: string) => raw.replace(/[^A-Za-z0-9-]/g, "-").slice(0, 64) || "unknown";
