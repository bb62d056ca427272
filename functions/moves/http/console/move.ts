import * as z from "zod/mini";
import { defineEndpoint } from "../../../platform/http/endpoint.js";
import { lambda } from "../../../platform/http/lambda.js";
import { ApiError } from "../../../platform/http/errors.js";
import { positiveInt } from "../../../platform/http/params.js";
import { findMove, isTerminal } from "../../domain/records.js";
import { moveDetails } from "../../domain/console-move.js";
import { movableKinds } from "../../domain/console-moves.js";
import type { MoveKind } from "../../keys.js";
import { assertAdmin, pollEvery } from "./admin.js";

/**
 * `GET /admin/storage_moves/:type/:id/details.json` (the console's move page): the move's timeline,
 * checksum, execution (console link on AWS, events through `GetExecutionHistory`) and where it is in
 * the state machine (`domain/console-move.ts`).
 */
export const endpoint = defineEndpoint(
  { summary: "One storage move: timeline, execution and state-machine path (console JSON)", access: "read", params: z.object({ type: z.string().check(z.maxLength(20)), id: positiveInt() }) },
  async ({ c, principal, params }) => {
    assertAdmin(principal);
    const move = movableKinds().includes(params.type as MoveKind) ? await findMove(params.type as MoveKind, params.id) : undefined;
    if (!move) throw new ApiError(404, { message: "404 Storage move Not Found" });
    pollEvery(c, !isTerminal(move.state));
    return moveDetails(move);
  },
);
export const handler = lambda(endpoint);
