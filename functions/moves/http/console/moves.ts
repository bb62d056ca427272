import * as z from "zod/mini";
import { defineEndpoint } from "../../../platform/http/endpoint.js";
import { lambda } from "../../../platform/http/lambda.js";
import { paramError } from "../../../platform/http/errors.js";
import { positiveInt } from "../../../platform/http/params.js";
import { setKeysetLink } from "../../../platform/http/pagination.js";
import { isStorage, movableKinds } from "../../domain/policy.js";
import { isTerminal } from "../../domain/records.js";
import { bulkMoves, isMoveState, listMovesPage, throughput } from "../../domain/console-moves.js";
import type { MoveKind } from "../../keys.js";
import { pollEvery } from "./admin.js";

/**
 * `GET /admin/storage_moves.json?type&state&storage&cursor&per_page` (the console's moves page):
 * moves newest first, one keyset page (`pagination.next.cursor`, and GitLab's `Link: rel="next"`);
 * the latest storage-wide move of each type off each storage with its progress; and bytes/s and
 * moves/min over the last hour (`domain/console-moves.ts`).
 */
export const endpoint = defineEndpoint(
  {
    summary: "Storage moves, storage-wide moves' progress and throughput (console JSON)",
    access: "read",
    admin: "hidden",
    query: z.object({
      type: z.optional(z.string().check(z.maxLength(20))),
      state: z.optional(z.string().check(z.maxLength(20))),
      storage: z.optional(z.string().check(z.maxLength(64))),
      cursor: z.optional(z.string().check(z.maxLength(500))),
      per_page: z.optional(positiveInt()),
    }),
  },
  async ({ c, query }) => {
    const kinds = movableKinds();
    if (query.type && !kinds.includes(query.type as MoveKind)) throw paramError("type does not have a valid value");
    if (query.state && !isMoveState(query.state)) throw paramError("state does not have a valid value");
    if (query.storage && !isStorage(query.storage)) throw paramError("storage does not have a valid value");
    const limit = Math.min(100, query.per_page ?? 20);
    const [page, bulk, rate] = await Promise.all([
      listMovesPage({ kinds: query.type ? [query.type as MoveKind] : kinds, state: query.state && isMoveState(query.state) ? query.state : undefined, storage: query.storage || undefined, cursor: query.cursor || undefined, limit }),
      bulkMoves(),
      throughput(),
    ]);
    setKeysetLink(c, page.next ? { cursor: page.next } : undefined);
    const running = bulk.some((b) => b.running) || page.moves.some((m) => !isTerminal(m.state));
    pollEvery(c, running);
    return { moves: page.moves, pagination: page.next ? { next: { cursor: page.next } } : {}, bulk_moves: bulk, throughput: rate };
  },
);
export const handler = lambda(endpoint);
