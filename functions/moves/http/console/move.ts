import { lambda } from "../../../platform/http/lambda.js";
import { moveDetails } from "../../domain/console-move.js";
import { consoleMoveEndpoint } from "./admin.js";

/**
 * `GET /admin/storage_moves/:type/:id/details.json` (the console's move page): the move's timeline,
 * checksum, execution (its console page on AWS) and where it is in the state machine as its record
 * says (`domain/console-move.ts`); `…/execution.json` adds the events.
 */
export const endpoint = consoleMoveEndpoint("One storage move: timeline, checksum, execution and state-machine path (console JSON)", (move) => moveDetails(move));
export const handler = lambda(endpoint);
