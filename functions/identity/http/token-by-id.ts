import * as z from "zod/mini";
import type { Principal } from "../domain/auth.js";
import { ApiError } from "../../platform/http/errors.js";
import { positiveInt } from "../../platform/http/params.js";
import { findTokenById, type TokenRecord } from "../domain/tokens.js";

export const tokenIdParams = z.object({ id: positiveInt() });

/**
 * A token its owner or an administrator may see; for any other (or none) the error `hidden` makes:
 * GitLab's 404 unless the route answers otherwise.
 */
export async function visibleToken(principal: Principal, id: number, hidden: () => ApiError = () => new ApiError(404, { message: "404 Not Found" })): Promise<TokenRecord> {
  const token = await findTokenById(id);
  if (!token || (!principal.user.admin && token.userId !== principal.user.id)) throw hidden();
  return token;
}
