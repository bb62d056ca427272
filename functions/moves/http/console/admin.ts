/**
 * What the operator console's JSON routes share (`/admin/…json`, the pages' data, not GitLab's API):
 * a poll interval that follows what is running; one move by type and id. Each route is for
 * administrators only (`admin: "hidden"`): anyone else gets the same 404 GitLab's admin area gives,
 * before any parameter is read, so the console's existence is not disclosed.
 */
import * as z from "zod/mini";
import type { Context } from "hono";
import { defineEndpoint, type Endpoint } from "../../../platform/http/endpoint.js";
import { ApiError } from "../../../platform/http/errors.js";
import { positiveInt } from "../../../platform/http/params.js";
import { findMove, isTerminal, type MoveRecord } from "../../domain/records.js";

/** How often the page asks again (`Poll-Interval`, ms, as GitLab's polling pages): often while moves run. */
export function pollEvery(c: Context, running: boolean): void {
  c.header("Poll-Interval", String(running ? 2000 : 10_000));
}

export const moveParams = { type: z.string().check(z.maxLength(20)), id: positiveInt() };

/**
 * The move of `:type/:id`, or 404. A group wiki's move is shown whatever the tier now is: it exists
 * only where group moves did (reading the tier would put the instance configuration in the bundle of
 * the function that also carries the Step Functions client).
 */
export async function consoleMove(params: { type: string; id: number }): Promise<MoveRecord> {
  const kind = params.type === "project" || params.type === "snippet" || params.type === "group" ? params.type : undefined;
  const move = kind ? await findMove(kind, params.id) : undefined;
  if (!move) throw new ApiError(404, { message: "404 Storage move Not Found" });
  return move;
}

/**
 * A route of one move (`/admin/storage_moves/:type/:id/….json`): the move or 404, polled while it
 * runs, answered with `view` of it. Each route passes its own view, so only the one that reads the
 * execution's events carries the Step Functions client.
 */
export function consoleMoveEndpoint(summary: string, view: (move: MoveRecord) => Promise<unknown>): Endpoint {
  return defineEndpoint({ summary, access: "read", admin: "hidden", params: z.object(moveParams) }, async ({ c, params }) => {
    const move = await consoleMove(params);
    pollEvery(c, !isTerminal(move.state));
    return view(move);
  });
}
