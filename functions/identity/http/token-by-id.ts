import * as z from "zod/mini";
import type { Principal } from "../domain/auth.js";
import { ApiError } from "../../platform/http/errors.js";
import { positiveInt } from "../../platform/http/params.js";
import { findTokenById, type TokenRecord } from "../domain/tokens.js";

export const tokenIdParams = z.object({ id: positiveInt() });

/** A token its owner or an administrator may see; GitLab answers 404 for any other. */
export async function visibleToken(principal: Principal, id: number): Promise<TokenRecord> {
  const token = await findTokenById(id);
  if (!token || (!principal.user.admin && token.userId !== principal.user.id)) throw new ApiError(404, { message: "404 Not Found" });
  return token;
}
