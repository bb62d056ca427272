/**
 * `POST /<plural>/:id/repository_storage_moves`: schedules a move of one project, snippet or group
 * (201 with the `scheduled` record) and starts its execution.
 */
import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { idOrPath } from "../../platform/http/params.js";
import { baseUrl } from "../../platform/http/urls.js";
import type { MoveKind } from "../keys.js";
import { scheduleContainerMove } from "../domain/schedule.js";
import { moveView } from "../domain/view.js";
import { assertKindAvailable, containerOr404, storageName } from "./common.js";

export const scheduleContainerStorageMove = (kind: MoveKind) =>
  defineEndpoint(
    {
      summary: `Schedule a repository storage move for a ${kind}`,
      access: "write",
      admin: true,
      status: 201,
      params: z.object({ id: idOrPath() }),
      // GitLab clients (e.g. @gitbeaker/rest) also send the source storage and the container id in the
      // body; GitLab ignores both (the source is the container's current storage), and so do we.
      body: z.object({
        destination_storage_name: z.nullish(storageName()),
        source_storage_name: z.nullish(z.string().check(z.maxLength(255))),
        [`${kind}_id`]: z.nullish(z.union([z.string().check(z.maxLength(512)), z.number()])),
      }),
    },
    async ({ c, params, body }) => {
      assertKindAvailable(kind);
      const container = await containerOr404(kind, params.id);
      const move = await scheduleContainerMove(kind, container, body.destination_storage_name as string | null | undefined);
      return moveView(move, baseUrl(c));
    },
  );
