/**
 * The write lease dies with its writer: a lease of an earlier runtime incarnation counts as released
 * (the next write takes it on its first attempt, a move's drain ignores it), a writer that lost its
 * lease cannot move a ref (fencing), the lease is renewed while a long write runs, and a ref lock a
 * dead writer left behind does not block the next writer. Domain-level calls on the shared runtime's
 * table and storages; `FORGELINE_WRITE_WAIT_MS=0` makes any wait for a lease an immediate 409, so
 * success proves the first attempt won.
 */
import { describe, it, expect, beforeAll, afterEach } from "vitest";
import { writeFileSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { api, newUser, unique } from "../support/api.js";
import { commitSubjects, repoPaths } from "../support/git.js";
import { getItem, updateItem } from "../../functions/platform/db/table.js";
import { commitActions } from "../../functions/hosting/domain/git/index.js";
import { currentWriter } from "../../functions/hosting/domain/git/writer.js";
import { hasWriteInFlight, withRepositoryWrite, type WriteLease } from "../../functions/hosting/domain/write-path.js";
import { releaseWriteLeases, takeWriteLeases } from "../../functions/hosting/domain/write-lease-batch.js";

let owner: Awaited<ReturnType<typeof newUser>>;
const saved = { ...process.env };

beforeAll(async () => {
  owner = await newUser();
});
afterEach(() => {
  for (const key of ["FORGELINE_WRITE_WAIT_MS", "FORGELINE_WRITE_LEASE_MS", "FORGELINE_RUNTIME_INCARNATION"]) {
    if (saved[key] === undefined) delete process.env[key];
    else process.env[key] = saved[key];
  }
});

async function newProject() {
  const res = await api("POST", "/api/v4/projects", { token: owner.token, body: { name: unique("lease"), initialize_with_readme: true } });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: number };
}

const item = (id: number) => getItem<{ writeLease?: WriteLease; storage: string; relativePath: string }>(`PROJECT#${id}`, "PROJECT");
const setLease = (id: number, lease: Partial<WriteLease>) => updateItem({ pk: `PROJECT#${id}`, sk: "PROJECT", update: "SET writeLease = :l", values: { ":l": lease } });

const commitIn = (id: number, message: string) =>
  withRepositoryWrite("project", id, (loc) =>
    commitActions(loc!.storage, loc!.relativePath, { branch: "main", message, author: { name: "A", email: "a@example.com" }, actions: [{ action: "create", file_path: `${unique("f")}.txt`, content: message }] }),
  );

const mainDir = async (id: number) => repoPaths((await item(id))!.storage, "project", id)[0]!;

describe("write leases", () => {
  it("name their holder and incarnation, and are released when the write ends", async () => {
    process.env.FORGELINE_RUNTIME_INCARNATION = "7";
    const { id } = await newProject();
    let seen: WriteLease | undefined;
    await withRepositoryWrite("project", id, async () => void (seen = (await item(id))!.writeLease));
    expect(seen).toMatchObject({ holder: `runtime-7-${process.pid}`, incarnation: 7 });
    expect(seen!.expiresAt).toBeGreaterThan(0);
    expect((await item(id))!.writeLease).toBeUndefined();
  });

  it("a lease of an earlier incarnation is released at once: the next write wins its first attempt, a move's drain ignores it", async () => {
    process.env.FORGELINE_RUNTIME_INCARNATION = "7";
    process.env.FORGELINE_WRITE_WAIT_MS = "0";
    const { id } = await newProject();
    const dead: WriteLease = { id: "dead-writer", holder: "runtime-6-1", incarnation: 6, expiresAt: Date.now() + 600_000 };
    await setLease(id, dead);
    expect(hasWriteInFlight({ writeLease: dead })).toBe(false);
    // A live holder's lease (this incarnation, or one without incarnation: a Lambda) still counts and still blocks.
    expect(hasWriteInFlight({ writeLease: { ...dead, incarnation: 7 } })).toBe(true);
    expect(hasWriteInFlight({ writeLease: { expiresAt: dead.expiresAt } })).toBe(true);

    await commitIn(id, "after the crash");
    expect(commitSubjects(await mainDir(id))[0]).toBe("after the crash");

    await setLease(id, { id: "live-writer", holder: "runtime-7-1", incarnation: 7, expiresAt: Date.now() + 600_000 });
    await expect(commitIn(id, "blocked")).rejects.toMatchObject({ status: 409, body: { message: "Another write to this repository is still running. Please try again." } });
  });

  it("fencing: a writer whose lease was taken over, or expired, cannot move the ref", async () => {
    const { id } = await newProject();
    const dir = await mainDir(id);
    const before = commitSubjects(dir);
    const takeOverDuring = (change: (lease: WriteLease) => Partial<WriteLease>) =>
      withRepositoryWrite("project", id, async (loc) => {
        await setLease(id, change((await item(id))!.writeLease!));
        return commitActions(loc!.storage, loc!.relativePath, { branch: "main", message: "fenced", author: { name: "A", email: "a@example.com" }, actions: [{ action: "create", file_path: "x.txt", content: "x" }] });
      });
    const lost = { status: 409, body: { message: expect.stringMatching(/^This write lost its hold on the repository/) } };
    await expect(takeOverDuring(() => ({ id: "someone-else", holder: "lambda-x-1", expiresAt: Date.now() + 60_000 }))).rejects.toMatchObject(lost);
    expect((await item(id))!.writeLease!.id).toBe("someone-else"); // the other writer's lease is left alone
    await updateItem({ pk: `PROJECT#${id}`, sk: "PROJECT", update: "REMOVE writeLease" });
    await expect(takeOverDuring((lease) => ({ ...lease, expiresAt: Date.now() - 1 }))).rejects.toMatchObject(lost);
    expect(commitSubjects(dir)).toEqual(before);
    // The ref's lock was given back: the next write goes through.
    await commitIn(id, "next");
    expect(commitSubjects(dir)[0]).toBe("next");
  });

  it("is renewed by a heartbeat while a long write runs", async () => {
    process.env.FORGELINE_WRITE_LEASE_MS = "1000";
    const { id } = await newProject();
    await withRepositoryWrite("project", id, async () => {
      const first = (await item(id))!.writeLease!.expiresAt;
      let now = first;
      while (now === first) {
        await new Promise((r) => setTimeout(r, 50));
        now = (await item(id))!.writeLease!.expiresAt;
      }
      expect(now).toBeGreaterThan(first);
    });
  });

  it("a ref lock older than the lease was left by a dead writer and is broken; a newer one is not", async () => {
    const { id } = await newProject();
    const dir = await mainDir(id);
    const lock = join(dir, "refs", "heads", "main.lock");
    writeFileSync(lock, "");
    utimesSync(lock, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    await commitIn(id, "past the orphan lock");
    expect(commitSubjects(dir)[0]).toBe("past the orphan lock");

    await expect(
      withRepositoryWrite("project", id, async (loc) => {
        writeFileSync(lock, ""); // taken after our lease: someone is writing this ref right now
        // ... stamped by the file system's coarse clock, a few milliseconds before our lease's time.
        const stamp = new Date(currentWriter()!.heldSince! - 5);
        utimesSync(lock, stamp, stamp);
        return commitActions(loc!.storage, loc!.relativePath, { branch: "main", message: "raced", author: { name: "A", email: "a@example.com" }, actions: [{ action: "create", file_path: "y.txt", content: "y" }] });
      }),
    ).rejects.toThrow(/Could not update refs\/heads\/main/);
    expect(commitSubjects(dir)[0]).toBe("past the orphan lock");
  });

  it("taken a batch at a time: the same lease as a write's, refused where a write would wait, released only where still ours", async () => {
    process.env.FORGELINE_RUNTIME_INCARNATION = "7";
    process.env.FORGELINE_WRITE_WAIT_MS = "0";
    const [free, busy, readOnly, alsoFree] = await Promise.all([newProject(), newProject(), newProject(), newProject()]);
    await setLease(busy.id, { id: "live-writer", holder: "runtime-7-1", incarnation: 7, expiresAt: Date.now() + 600_000 });
    await updateItem({ pk: `PROJECT#${readOnly.id}`, sk: "PROJECT", update: "SET readOnly = :t", values: { ":t": true } });
    const targets = [free, busy, readOnly, alsoFree].map(({ id }) => ({ kind: "project" as const, id }));

    const { held, refused } = await takeWriteLeases(targets);
    expect(held.map((h) => h.target.id)).toEqual([free.id, alsoFree.id]);
    expect(refused.map((t) => t.id)).toEqual([busy.id, readOnly.id]);
    for (const { target, lease } of held) {
      const stored = (await item(target.id))!.writeLease!;
      expect(stored).toEqual(lease);
      expect(stored).toMatchObject({ holder: `runtime-7-${process.pid}`, incarnation: 7 });
      // A move's drain sees a write in flight, and a writer waits for it (here: gives up at once).
      expect(hasWriteInFlight({ writeLease: stored })).toBe(true);
    }
    await expect(commitIn(free.id, "during the batch")).rejects.toMatchObject({ status: 409 });

    // One of the batch's leases expired and another writer took the container: that one stays theirs.
    await setLease(alsoFree.id, { id: "next-writer", holder: "lambda-x-1", expiresAt: Date.now() + 600_000 });
    await releaseWriteLeases(held);
    expect((await item(free.id))!.writeLease).toBeUndefined();
    expect((await item(alsoFree.id))!.writeLease!.id).toBe("next-writer");
    expect((await item(busy.id))!.writeLease!.id).toBe("live-writer");
    await commitIn(free.id, "after the batch");
    expect(commitSubjects(await mainDir(free.id))[0]).toBe("after the batch");
  });
});
