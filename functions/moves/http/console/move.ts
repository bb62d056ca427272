import * as z from "zod/mini";
import { defineEndpoint } from "../../../platform/http/endpoint.js";
import { lambda } from "../../../platform/http/lambda.js";
import { isTerminal } from "../../domain/records.js";
import { moveDetails } from "../../domain/console-move.js";
import { pollEvery, consoleMove, moveParams } from "./admin.js";

/**
 * `GET /admin/storage_moves/:type/:id/details.json` (the console's move page): the move's timeline,
 * checksum, execution (its console page on AWS) and where it is in the state machine as its record
 * says (`domain/console-move.ts`); `…/execution.json` adds the events.
 */
export const endpoint = defineEndpoint(
  { summary: "One storage move: timeline, checksum, execution and state-machine path (console JSON)", access: "read", admin: "hidden", params: z.object(moveParams) },
  async ({ c, params }) => {
    const move = await consoleMove(params);
    pollEvery(c, !isTerminal(move.state));
    return moveDetails(move);
  },
);
export const handler = lambda(endpoint);
