import * as z from "zod/mini";
import { defineEndpoint } from "../../../platform/http/endpoint.js";
import { lambda } from "../../../platform/http/lambda.js";
import { isTerminal } from "../../domain/records.js";
import { moveExecution } from "../../domain/console-execution.js";
import { pollEvery, consoleMove, moveParams } from "./admin.js";

/**
 * `GET /admin/storage_moves/:type/:id/execution.json` (the console's move page): the move's
 * execution, its events through `GetExecutionHistory`, and where the move is in the state machine
 * by them (`domain/console-execution.ts`). The only console function with the Step Functions client.
 */
export const endpoint = defineEndpoint(
  { summary: "One storage move's execution events and state-machine path (console JSON)", access: "read", admin: "hidden", params: z.object(moveParams) },
  async ({ c, params }) => {
    const move = await consoleMove(params);
    pollEvery(c, !isTerminal(move.state));
    return moveExecution(move);
  },
);
export const handler = lambda(endpoint);
