/**
 * `POST /<kind>_repository_storage_moves`: moves every repository of the kind off a storage (202 at
 * once; the work runs in a bulk execution).
 */
import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import type { MoveKind } from "../keys.js";
import { scheduleBulkMoves } from "../domain/bulk.js";
import { assertKindAvailable, storageName } from "./common.js";

export const scheduleStorageMoves = (kind: MoveKind) =>
  defineEndpoint(
    {
      summary: `Schedule moves of every ${kind} repository on a storage`,
      access: "write",
      admin: true,
      status: 202,
      body: z.object({ source_storage_name: storageName(), destination_storage_name: z.optional(storageName()) }),
    },
    async ({ body }) => {
      assertKindAvailable(kind);
      await scheduleBulkMoves(kind, body.source_storage_name, body.destination_storage_name);
      return { message: "202 Accepted" };
    },
  );
