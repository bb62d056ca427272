import { lambda } from "../../../platform/http/lambda.js";
import { moveExecution } from "../../domain/console-execution.js";
import { consoleMoveEndpoint } from "./admin.js";

/**
 * `GET /admin/storage_moves/:type/:id/execution.json` (the console's move page): the move's
 * execution, its events through `GetExecutionHistory`, and where the move is in the state machine
 * by them (`domain/console-execution.ts`). The only console function with the Step Functions client.
 */
export const endpoint = consoleMoveEndpoint("One storage move's execution events and state-machine path (console JSON)", moveExecution);
export const handler = lambda(endpoint);
