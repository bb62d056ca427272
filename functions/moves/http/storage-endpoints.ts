/**
 * `/<kind>_repository_storage_moves`: every move of a kind and one by id. The bulk POST is in
 * `storage-schedule.ts`, so only its function carries the Step Functions client.
 */
import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { notFound } from "../../platform/http/errors.js";
import { pageQuery, positiveInt } from "../../platform/http/params.js";
import { baseUrl } from "../../platform/http/urls.js";
import type { MoveKind } from "../keys.js";
import { findMove, listMoves } from "../domain/records.js";
import { moveView } from "../domain/view.js";
import { assertKindAvailable, pageOfMoves } from "./common.js";

export const listStorageMoves = (kind: MoveKind) =>
  defineEndpoint(
    { summary: `List all ${kind} repository storage moves, newest first`, access: "read", admin: true, query: z.object(pageQuery) },
    async ({ c, query }) => {
      assertKindAvailable(kind);
      return pageOfMoves(c, query, (offset, limit) => listMoves(kind, offset, limit));
    },
  );

export const getStorageMove = (kind: MoveKind) =>
  defineEndpoint(
    { summary: `Get a ${kind} repository storage move`, access: "read", admin: true, params: z.object({ repository_storage_move_id: positiveInt() }) },
    async ({ c, params }) => {
      assertKindAvailable(kind);
      const move = await findMove(kind, params.repository_storage_move_id);
      if (!move) throw notFound();
      return moveView(move, baseUrl(c));
    },
  );

/**
 * Not a GitLab endpoint (GitLab's entity has no room for it): where and how a move ran — its Step
 * Functions execution and the steps it went through, a failure's cause on its `failed` (or
 * `cleanup failed`) entry — for operators (`npm run moves -- show`).
 */
export const getStorageMoveExecution = (kind: MoveKind) =>
  defineEndpoint(
    { summary: `Execution and step history of a ${kind} repository storage move (admin)`, access: "read", admin: true, params: z.object({ repository_storage_move_id: positiveInt() }) },
    async ({ params }) => {
      assertKindAvailable(kind);
      const move = await findMove(kind, params.repository_storage_move_id);
      if (!move) throw notFound();
      return {
        id: move.id,
        state: move.state,
        error_message: move.errorMessage,
        execution_arn: move.executionArn ?? null,
        bulk_execution_name: move.bulkExecution ?? null,
        updated_at: move.updatedAt,
        history: move.history,
      };
    },
  );
