/**
 * A backup whose table snapshot a full disk cuts short fails, instead of finishing an archive that
 * lacks table items: the spool's appends are cut to half here (as a nearly full disk takes what
 * fits and returns the count), and the backup must say so and leave no archive behind.
 */
import { describe, it, expect, beforeAll, afterAll, vi } from "vitest";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { backup } from "../../functions/backup/backup.js";
import { ok, privateRuntime, type PrivateRuntime } from "./support.js";

/** While on, a write to a backup's table spool takes half of what it is given. */
const cutShort = vi.hoisted(() => ({ on: false }));

vi.mock("node:fs/promises", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:fs/promises")>();
  const open: typeof actual.open = async (...args) => {
    const handle = await actual.open(...args);
    if (!String(args[0]).includes(".items-")) return handle;
    const write = handle.write.bind(handle) as (data: Buffer | string) => ReturnType<typeof handle.write>;
    const half = (data: Buffer | string) => (typeof data === "string" ? Buffer.from(data) : data).subarray(0, Math.floor(Buffer.byteLength(data) / 2));
    return Object.assign(handle, { write: (data: Buffer | string) => write(cutShort.on ? half(data) : data) });
  };
  return { ...actual, open, default: { ...actual, open } };
});

const work = mkdtempSync(join(tmpdir(), "forgeline-backup-short-"));
let rt: PrivateRuntime;

beforeAll(async () => {
  rt = await privateRuntime("glpat-backup-short-write-admin-01");
  await ok(rt, "POST", "/api/v4/projects", { name: "Kept whole", initialize_with_readme: true });
}, 120_000);

afterAll(async () => {
  await rt?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe("a backup on a disk that fills up", () => {
  it("fails when an append to its table snapshot falls short, and leaves no archive", async () => {
    const file = join(work, "cut.tar");
    cutShort.on = true;
    try {
      await expect(backup({ file })).rejects.toMatchObject({ code: "ENOSPC" });
    } finally {
      cutShort.on = false;
    }
    expect(existsSync(file)).toBe(false);
    expect(readdirSync(work)).toEqual([]);
    // With room again, the same backup is whole.
    expect((await backup({ file })).repositories).toBeGreaterThan(0);
  }, 120_000);
});
