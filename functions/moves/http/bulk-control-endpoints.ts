/**
 * Not GitLab's (it cannot stop a bulk move): an administrator cancels the storage-wide moves of a kind
 * off a storage, or changes how many of their moves run at once (`domain/bulk-control.ts`). Only
 * DynamoDB: these functions carry neither the Step Functions client nor Git.
 */
import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { positiveInt } from "../../platform/http/params.js";
import type { MoveKind } from "../keys.js";
import { cancelBulk, CANCELED_MESSAGE, defaultConcurrency, MAX_CONCURRENCY, pageShape, setBulkConcurrency, type BulkControl } from "../domain/bulk-control.js";
import { assertKindAvailable, storageName } from "./common.js";

const view = (control: BulkControl) => {
  const shape = pageShape(control);
  return {
    source_storage_name: control.source,
    scheduled_at: control.scheduledAt,
    canceled_at: control.canceledAt ?? null,
    concurrency: control.concurrency ?? defaultConcurrency(),
    // How the next page runs: batches of `batch_size` moves, `parallel_batches` at once.
    batch_size: shape.size,
    parallel_batches: shape.parallel,
  };
};

export const cancelStorageMoves = (kind: MoveKind) =>
  defineEndpoint(
    {
      summary: `Cancel the moves of every ${kind} repository off a storage (admin)`,
      access: "write",
      admin: true,
      body: z.object({ source_storage_name: storageName() }),
    },
    async ({ body }) => {
      assertKindAvailable(kind);
      const { canceled, control } = await cancelBulk(kind, body.source_storage_name);
      return { ...view(control), canceled_moves: canceled, message: `${canceled} scheduled moves failed: ${CANCELED_MESSAGE}; moves already started run to their end` };
    },
  );

export const setStorageMovesConcurrency = (kind: MoveKind) =>
  defineEndpoint(
    {
      summary: `Change how many ${kind} repository moves off a storage run at once (admin)`,
      access: "write",
      admin: true,
      body: z.object({ source_storage_name: storageName(), concurrency: z.pipe(positiveInt(), z.number().check(z.maximum(MAX_CONCURRENCY))) }),
    },
    async ({ body }) => {
      assertKindAvailable(kind);
      return view(await setBulkConcurrency(kind, body.source_storage_name, body.concurrency));
    },
  );
