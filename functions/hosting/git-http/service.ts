/**
 * One Git HTTP request, from the parsed path and the caller to git's answer: who may do it
 * (`access.ts`), where the repository is now, and — for a push — the repository's one write path.
 *
 * A push takes the same write lease as an API commit (renewed while it runs), so it is serialised
 * with every other write of the repository and a storage move waits for it to drain; while a move
 * holds the repository it is refused with GitLab's read-only message, which git prints, and on a
 * full disk with a line saying the storage is full (`platform/out-of-space.ts`). On a cluster
 * storage git writes into the primary copy and the replicas are then brought to the same state
 * (`replica-sync.ts`) before the client hears the push is over, so every copy has the same checksum.
 * A project's protected branches and tags are checked before any ref moves (`protection.ts`).
 */
import type { Readable } from "node:stream";
import type { Principal } from "../../identity/domain/auth.js";
import { getItem } from "../../platform/db/table.js";
import { ApiError, insufficientStorage } from "../../platform/http/errors.js";
import { isLowOnSpace, isOutOfSpace, STORAGE_FULL_MESSAGE } from "../../platform/out-of-space.js";
import { describeError, log } from "../../platform/log.js";
import { isRepositoryDir } from "../domain/git/lifecycle.js";
import { withRepositoryMutex } from "../domain/git/mutex.js";
import { mirrorToReplicas } from "../domain/git/replica-sync.js";
import { primaryPath, replicaPaths } from "../domain/git/storage.js";
import { currentWriter } from "../domain/git/writer.js";
import { containerKey } from "../domain/keys.js";
import { recordFetch } from "../domain/fetch-statistics.js";
import { READ_ONLY_MESSAGE, withRepositoryWrite, type RepositoryLocation } from "../domain/write-path.js";
import { grantFor, tokenAllows, type RepositoryGrant } from "./access.js";
import { runBackend, type BackendRequest, type BackendResponse } from "./backend.js";
import { fenceHooks } from "./fence-hook.js";
import { protectionRefusal } from "./protection.js";
import { protectedRules, type ProtectedRefs, type RefChange } from "../domain/protected-refs.js";
import type { GitRequestPath, GitService } from "./paths.js";
import { errAdvertisement, readPushCommands, rejectedPushResult, withStorageFullNotice } from "./pkt-line.js";
import { recordContribution } from "../domain/contributions.js";

export interface GitHttpRequest {
  method: "GET" | "POST";
  target: GitRequestPath;
  /** The query string without `?`. */
  query: string;
  service: GitService;
  principal: Principal | undefined;
  header: (name: string) => string | undefined;
  body: () => Readable | undefined;
}

export interface GitHttpAnswer {
  status: number;
  headers: Headers;
  body: AsyncIterable<Buffer> | Buffer | string;
}

/** GitLab's texts; git prints a `text/plain` error body as `remote:` lines. */
export const MESSAGES = {
  notFound: "The project you were looking for could not be found or you don't have permission to view it.",
  accessDenied: "HTTP Basic: Access denied. If a token was provided, it was either incorrect, expired, or improperly scoped.",
  uploadNotAllowed: "You are not allowed to upload code.",
  pushNotAllowed: "You are not allowed to push code to this project.",
} as const;

export const plain = (status: number, text: string, extra: Record<string, string> = {}): GitHttpAnswer => ({
  status,
  headers: new Headers({ "Content-Type": "text/plain; charset=utf-8", ...extra }),
  body: `${text}\n`,
});

export const challenge = () => plain(401, MESSAGES.accessDenied, { "WWW-Authenticate": 'Basic realm="GitLab"' });

export async function serveGit(request: GitHttpRequest): Promise<GitHttpAnswer> {
  const { principal, service } = request;
  const grant = await grantFor(principal, request.target.repository);
  // Without credentials a hidden repository asks for them (it may be private); with them it is absent.
  if (!grant) return principal ? plain(404, MESSAGES.notFound) : challenge();
  if (service === "git-receive-pack") {
    if (!principal) return challenge();
    if (!tokenAllows(principal, service)) return plain(403, MESSAGES.uploadNotAllowed);
    if (!grant.mayWrite) return plain(403, MESSAGES.pushNotAllowed);
  }
  const backendRequest = (gitdir: string): BackendRequest => ({
    gitdir,
    method: request.method,
    step: request.target.step,
    query: request.query,
    contentType: request.header("content-type"),
    contentLength: request.header("content-length"),
    contentEncoding: request.header("content-encoding"),
    gitProtocol: request.header("git-protocol"),
    remoteUser: service === "git-receive-pack" ? principal!.user.username : undefined,
    body: request.method === "POST" ? request.body() : undefined,
  });

  if (service === "git-receive-pack") {
    if (request.target.step === "info/refs") {
      if (await isReadOnly(grant)) return readOnlyAdvertisement();
    } else {
      // A push to a project's repository is a contribution of its pusher (not a wiki's: GitLab counts those apart).
      const pushed = request.target.repository.kind === "project" ? () => recordContribution(principal!.user.id, grant.container.id) : undefined;
      return push(grant, backendRequest, pushed).catch((err: unknown) => refusedPush(err, request));
    }
  }
  const gitdir = await currentCopy(grant);
  if (!gitdir) return plain(404, MESSAGES.notFound);
  if (request.target.step === "git-upload-pack" && request.target.repository.kind === "project") await countFetch(grant.container.id);
  return answerOf(await runBackend(backendRequest(gitdir)));
}

/** A fetch of a project's repository counts in its statistics; a count that fails never fails the fetch. */
async function countFetch(projectId: number): Promise<void> {
  await recordFetch(projectId).catch((err: unknown) => log.warn("fetch not counted", { projectId, ...describeError(err) }));
}

const answerOf = (response: BackendResponse): GitHttpAnswer => ({ status: response.status, headers: response.headers, body: response.body });

async function containerItem(grant: RepositoryGrant) {
  const key = containerKey(grant.container.kind, grant.container.id);
  return getItem<{ readOnly?: boolean; storage?: string; relativePath?: string; wikiRepository?: boolean }>(key.pk, key.sk);
}

async function isReadOnly(grant: RepositoryGrant): Promise<boolean> {
  return (await containerItem(grant))?.readOnly === true;
}

/**
 * The directory to read: the primary copy where the container item said the repository is, or —
 * when a storage move switched it since (and removed the source) — where a fresh read says it is.
 */
async function currentCopy(grant: RepositoryGrant): Promise<string | undefined> {
  const first = grant.location && primaryPath(grant.location.storage, grant.location.relativePath);
  if (first && (await isRepositoryDir(first))) return first;
  const item = await containerItem(grant);
  const fresh: RepositoryLocation | undefined = item && grant.locate(item);
  const path = fresh && primaryPath(fresh.storage, fresh.relativePath);
  return path && path !== first && (await isRepositoryDir(path)) ? path : undefined;
}

/**
 * The advertisement of a repository a storage move holds: an `ERR` packet, which git reports as
 * `remote error: <message>` and stops before it sends anything.
 */
export function readOnlyAdvertisement(): GitHttpAnswer {
  return {
    status: 200,
    headers: new Headers({ "Content-Type": "application/x-git-receive-pack-advertisement", "Cache-Control": "no-cache" }),
    body: errAdvertisement(READ_ONLY_MESSAGE),
  };
}

/**
 * A push refused before git read it (a move began after the advertisement; another write held the
 * repository too long; the storage, or the disk under the table, is full): every ref rejected with
 * the refusal's message, which git also prints as a `remote:` line. Other errors go on to the caller.
 */
async function refusedPush(err: unknown, request: GitHttpRequest): Promise<GitHttpAnswer> {
  const refusal = pushRefusal(err);
  if (!refusal) throw err;
  const { status, reason, headers } = refusal;
  const body = request.body();
  const commands = body && (await readPushCommands(body, request.header("content-encoding")));
  if (!commands) return plain(status, reason, headers);
  return {
    status: 200,
    headers: new Headers({ "Content-Type": "application/x-git-receive-pack-result", "Cache-Control": "no-cache" }),
    body: rejectedPushResult(commands, reason),
  };
}

function pushRefusal(err: unknown): { status: number; reason: string; headers: Record<string, string> } | undefined {
  if (isOutOfSpace(err) || (err instanceof ApiError && err.status === 507)) return { status: 507, reason: STORAGE_FULL_MESSAGE, headers: {} };
  if (err instanceof ApiError && err.status === 409) return { status: 409, reason: (err.body as { message?: string }).message ?? READ_ONLY_MESSAGE, headers: err.headers };
  return undefined;
}

/**
 * Runs receive-pack under the write lease. The answer is handed out as soon as git has written its
 * headers, and its body ends only once the write has ended (git exited, the replicas in step, the
 * lease released with the repository's size recorded), so a client that sees its push complete can
 * read it from any copy. A refusal before git started (read-only, another
 * write that does not finish in time) rejects with the write path's `ApiError`.
 */
function push(grant: RepositoryGrant, backendRequest: (gitdir: string) => BackendRequest, pushed?: () => Promise<void>): Promise<GitHttpAnswer> {
  return new Promise<GitHttpAnswer>((answer, refuse) => {
    let answered = false;
    // Git moved a ref (a ref transaction was prepared under the lease's fence; the pre-receive check,
    // which comes first, declined nothing) and exited cleanly: only such a push is a contribution.
    let moved = false;
    let accepted = false;
    const write = withRepositoryWrite(grant.container.kind, grant.container.id, async (_location, container) => {
      const location = grant.locate(container);
      if (!location) throw new ApiError(404, { message: MESSAGES.notFound });
      const paths = replicaPaths(location.storage, location.relativePath);
      await withRepositoryMutex(paths[0]!, async () => {
        // A disk too full for a pack is refused before git starts, in words of ours rather than git's.
        if (paths.some(isLowOnSpace)) throw insufficientStorage();
        const writer = currentWriter();
        // Each ref git moves is fenced with the lease while git holds its lock, as API writes are.
        const protection = grant.protection;
        // The rules as the lease read the project item: current when git asks, and no read of their own.
        const rules = protectedRules(container as { protectedRefs?: ProtectedRefs });
        const check = protection && ((changes: RefChange[]) => protectionRefusal(protection, rules, paths[0]!, changes));
        const fence = () => (writer?.fence?.() ?? Promise.resolve()).then(() => void (moved = true));
        const hooks = await fenceHooks(fence, check);
        try {
          const response = await runBackend({ ...backendRequest(paths[0]!), hooksPath: hooks.hooksPath });
          answered = true;
          // The body ends once the whole write has: replicas in step, the lease released with the
          // repository's new size recorded, the contribution counted (`recorded`, assigned before this callback runs).
          // Should git still run out of space (a pack larger than the room left), the answer says so in our words too.
          const body = withStorageFullNotice(response.body, STORAGE_FULL_MESSAGE);
          answer({ ...answerOf(response), body: endingWhen(body, recorded) });
          const exitCode = await response.exited;
          await mirrorToReplicas(paths);
          accepted = moved && exitCode === 0;
        } finally {
          await hooks.close();
        }
      });
    });
    // The contribution is recorded once the write has resolved, outside the mutex and the lease; the
    // answer's body ends after it, so a client that sees its push complete finds it counted.
    const recorded = write.then(
      () => (accepted && pushed ? pushed().catch((err: unknown) => log.warn("push not counted", { ...grant.container, ...describeError(err) })) : undefined),
      noop,
    );
    write.catch((err: unknown) => {
      if (!answered) refuse(err);
      else log.error("push failed after git answered", { ...grant.container, ...describeError(err) });
    });
  });
}

const noop = () => undefined;

async function* endingWhen(body: AsyncIterable<Buffer>, done: Promise<void>): AsyncGenerator<Buffer> {
  yield* body;
  await done;
}
