/**
 * The steps of a batch of moves up to the switch, as the state machine runs them (see `batch.ts`).
 *
 * Each step's writes are conditional on the state it expects (a move `scheduled` or `started`, its
 * container held read-only by it on the source), so a retried step or a second execution can never
 * both win. Reads happen where a decision needs the current item: the records and their containers'
 * write leases at the start, the leases again while draining.
 */
import { getItems } from "../../platform/db/table.js";
import { hasWriteInFlight } from "../../hosting/domain/write-path.js";
import { containerKey } from "../../hosting/domain/keys.js";
import { checksum, removeRepository, replicaChecksums, replicate, ChecksumMismatchError } from "../../hosting/domain/git/index.js";
import { projectWikiLocation, projectWikiPath } from "../../hosting/domain/project-wiki.js";
import { movedBytes, sizesOf } from "../../hosting/domain/repository-size.js";
import { moveKey } from "../keys.js";
import { failOne, forEachMove, movesAt, note, reachedState, refOf, settled, type ActiveMove, type MoveBatch, type Stage } from "./batch.js";
import { containersOf, kindInfo, type AnyContainer } from "./containers.js";
import { DrainTimeoutError, MoveConflictError } from "./errors.js";
import { drainPolicy } from "./execution.js";
import { faultPoint } from "./fault-injection.js";
import { findMoves, moveOwner, type MoveRecord } from "./records.js";
import { runAsWriter } from "../../hosting/domain/git/writer.js";
import { markAllCanceled, markAllStarted, noteStep, switchAll } from "./transitions.js";
import { bulkCanceled, CANCELED_MESSAGE } from "./bulk-control.js";
import { recordCopy } from "./throughput.js";

/** Repositories copied (or verified) at once within one batch. */
const COPY_CONCURRENCY = 4;

/**
 * `scheduled → started` for every move of the batch, in one transaction. A move that is no longer
 * `scheduled` was handled already (GitLab's idempotent re-delivery) and is `done` here — unless this
 * very execution started it (a retried step, or the local runner restarting an interrupted
 * execution): then it resumes where it was, at the copy (`started`) or the cleanup (`replicated`).
 * The containers are read in the same round trip, for the first look at in-flight writes. When an
 * administrator canceled the bulk move that scheduled the batch, its scheduled moves end `failed`
 * instead (`bulk-control.ts`).
 */
export async function startMoves(input: { batch: MoveBatch; executionId?: string }): Promise<MoveBatch> {
  const batch = structuredClone(input.batch);
  const arn = input.executionId;
  const { moves } = batch;
  const read = await getItems<MoveRecord | AnyContainer>([...moves.map((m) => moveKey(m.kind, m.moveId)), ...moves.map((m) => containerKey(m.kind, m.containerId))]);
  let records = read.slice(0, moves.length) as Array<MoveRecord | undefined>;
  const containers = read.slice(moves.length) as Array<AnyContainer | undefined>;
  const scheduled = records.filter((r): r is MoveRecord => r?.state === "scheduled");
  const started = new Set<number>();
  // Canceled since this batch was scheduled: what has not started yet ends here, writable on its source.
  if (scheduled.length && batch.bulk && (await bulkCanceled(batch.bulk))) await markAllCanceled(scheduled, CANCELED_MESSAGE);
  else (await markAllStarted(scheduled, arn)).forEach((ok, i) => ok && started.add(scheduled[i]!.id));
  // A scheduled move this write did not start was started by someone else meanwhile: read it again.
  if (started.size < scheduled.length) records = await findMoves(moves);
  moves.forEach((move, i) => {
    const current = records[i];
    const record = current && started.has(current.id) ? { ...current, state: "started" as const, executionArn: arn } : current;
    const ours = !!record && (record.executionArn ?? null) === (arn ?? null);
    const stage: Stage = !ours ? "done" : record.state === "started" ? "started" : record.state === "replicated" ? "replicated" : "done";
    Object.assign(move, { stage, state: record?.state }, record && { sourceStorage: record.sourceStorage, destinationStorage: record.destinationStorage, relativePath: record.relativePath });
  });
  const drain = drainPolicy(batch.drain);
  const startedBatch = { ...batch, drain, executionId: arn, drainDeadline: Date.now() + drain.timeoutSeconds * 1000 };
  return inspectWrites(startedBatch, (move) => containers[moves.indexOf(move)]);
}

/**
 * In-flight writes are writes holding an unexpired lease (new ones are refused while read-only).
 * A move whose container is no longer held by it fails; one still seeing writes after the drain
 * deadline fails with GitLab's message. Runs again after each drain interval while writes remain.
 */
export async function checkWrites(input: MoveBatch): Promise<MoveBatch> {
  const batch = structuredClone(input);
  const moves = movesAt(batch, "started");
  const containers = await containersOf(moves);
  return inspectWrites(batch, (move) => containers[moves.indexOf(move)]);
}

async function inspectWrites(batch: MoveBatch, containerOf: (move: ActiveMove) => AnyContainer | undefined): Promise<MoveBatch> {
  let writesInFlight = false;
  await forEachMove(movesAt(batch, "started"), COPY_CONCURRENCY, async (move) => {
    const container = containerOf(move);
    if (!container || container.storageMoveId !== move.moveId || container.storage !== move.sourceStorage || !container.readOnly) {
      throw new MoveConflictError(`The ${kindInfo[move.kind].repositoryType} repository is no longer held read-only on ${move.sourceStorage} by storage move ${move.moveId}`);
    }
    if (!hasWriteInFlight(container)) return void delete move.waiting;
    if (Date.now() > (batch.drainDeadline ?? 0)) throw new DrainTimeoutError(`Timeout waiting for ${kindInfo[move.kind].repositoryType} repository pushes`);
    writesInFlight = true;
    if (!move.waiting) await noteStep(refOf(move), "waiting for writes to drain");
    move.waiting = true;
  });
  return settled({ ...batch, writesInFlight });
}

/**
 * Copies each repository to every replica of its destination and verifies each checksum. A
 * project's wiki repository, when it exists, travels with it, as on GitLab. Whether it exists is
 * read here, after the drain: creating it takes the project's write lease, so it cannot appear now.
 */
export async function replicateRepositories(input: MoveBatch): Promise<MoveBatch> {
  const batch = structuredClone(input);
  const moves = movesAt(batch, "started");
  // Read for each project's wiki, and for every container's recorded size (the copy throughput).
  const containers = moves.length ? await containersOf(moves) : [];
  const started = Date.now();
  await forEachMove(moves, COPY_CONCURRENCY, async (move) => {
    const container = containers[moves.indexOf(move)];
    const wikiPath = move.kind === "project" && container && projectWikiLocation(container) ? projectWikiPath(move.relativePath) : undefined;
    // The copies are named after the move: a retried or resumed step removes what it left before.
    await runAsWriter({ owner: moveOwner(move) }, async () => {
      const copy = (relativePath: string, repositoryType: string) =>
        replicate(
          { storage: move.sourceStorage, rel: relativePath },
          { storage: move.destinationStorage, rel: relativePath },
          { kind: repositoryType, afterCopy: (temps) => faultPoint("moveReplicate", "copied", { move, temps }) },
        );
      await copy(move.relativePath, kindInfo[move.kind].repositoryType);
      if (wikiPath) await copy(wikiPath, "wiki");
      // Without a wiki, none may wait at the destination to be adopted by a later first page.
      else if (move.kind === "project") await removeRepository(move.destinationStorage, projectWikiPath(move.relativePath));
    });
    if (wikiPath) move.wikiPath = wikiPath;
    else delete move.wikiPath;
    move.notes = [...(move.notes ?? []), note("copied and verified", `to ${move.destinationStorage}${wikiPath ? ", with its wiki" : ""}`)];
  });
  const copied = await Promise.all(moves.filter((m) => m.notes?.some((n) => n.step === "copied and verified")).map((m) => sizesOf(m.kind, containers[moves.indexOf(m)] ?? {})));
  await recordCopy(copied.reduce((sum, s) => sum + movedBytes(s), 0), Date.now() - started, batch.bulk);
  const { writesInFlight: _, ...rest } = batch;
  return settled(rest);
}

/**
 * Points each container at its destination, all in one transaction. The copies are verified once
 * more right before it, so nothing that happened to them since the replication step goes unnoticed;
 * the verified checksum is recorded with the `replicated` entry.
 */
export async function switchToDestination(input: MoveBatch): Promise<MoveBatch> {
  const batch = structuredClone(input);
  const moves = movesAt(batch, "started");
  const verified = new Map<number, string>();
  const verify = async (move: ActiveMove, relativePath: string, repositoryType: string) => {
    const expected = await checksum(move.sourceStorage, relativePath);
    const mismatch = (await replicaChecksums(move.destinationStorage, relativePath)).find((sum) => sum !== expected);
    if (mismatch !== undefined) throw new ChecksumMismatchError(expected, mismatch, repositoryType);
    return expected;
  };
  await forEachMove(moves, COPY_CONCURRENCY, async (move) => {
    const expected = await verify(move, move.relativePath, kindInfo[move.kind].repositoryType);
    const wiki = move.wikiPath ? await verify(move, move.wikiPath, "wiki") : undefined;
    verified.set(move.moveId, wiki ? `${expected}, wiki checksum ${wiki}` : expected);
  });
  const ready = moves.filter((m) => !m.error);
  const switched = await switchAll(ready.map((m) => ({ move: refOf(m), extra: { notes: m.notes, detail: `checksum ${verified.get(m.moveId)}` } })));
  // Not switched by this write: an earlier try of this step committed it (a retry), or the move conflicts.
  (await reachedState(ready, switched, "replicated")).forEach(({ reached }, i) => {
    const move = ready[i]!;
    if (!reached) failOne(move, new MoveConflictError(`Storage move ${move.moveId} could not switch the repository to ${move.destinationStorage}`));
    else Object.assign(move, { stage: "replicated", state: "replicated", notes: [] });
  });
  return settled(batch);
}
