/**
 * `/<plural>/:id/repository_storage_moves`: the moves of one project, snippet or group. The POST that
 * schedules one is in `container-schedule.ts`, so only its function carries the Step Functions client.
 */
import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { notFound } from "../../platform/http/errors.js";
import { idOrPath, pageQuery, positiveInt } from "../../platform/http/params.js";
import { baseUrl } from "../../platform/http/urls.js";
import type { MoveKind } from "../keys.js";
import { findMove, listContainerMoves } from "../domain/records.js";
import { moveView } from "../domain/view.js";
import { assertKindAvailable, containerOr404, pageOfMoves } from "./common.js";

export const listContainerStorageMoves = (kind: MoveKind) =>
  defineEndpoint(
    { summary: `List the repository storage moves of a ${kind}`, access: "read", admin: true, params: z.object({ id: idOrPath() }), query: z.object(pageQuery) },
    async ({ c, params, query }) => {
      assertKindAvailable(kind);
      const container = await containerOr404(kind, params.id);
      return pageOfMoves(c, query, (offset, limit) => listContainerMoves(kind, container.id, offset, limit));
    },
  );

export const getContainerStorageMove = (kind: MoveKind) =>
  defineEndpoint(
    {
      summary: `Get one repository storage move of a ${kind}`,
      access: "read",
      admin: true,
      params: z.object({ id: idOrPath(), repository_storage_move_id: positiveInt() }),
    },
    async ({ c, params }) => {
      assertKindAvailable(kind);
      const container = await containerOr404(kind, params.id);
      const move = await findMove(kind, params.repository_storage_move_id);
      // Scoped like GitLab's `container.repository_storage_moves.find(id)`: another container's move is not found.
      if (!move || move.containerId !== container.id) throw notFound();
      return moveView(move, baseUrl(c));
    },
  );
