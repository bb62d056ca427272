import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { ApiError } from "../../platform/http/errors.js";
import { findTokenById, revokeToken } from "../domain/tokens.js";
import { tokenIdParams } from "./token-by-id.js";

/**
 * Revokes a token: its owner, or an administrator for anyone's; 204 as in GitLab, also when it was
 * revoked already. Someone else's token is GitLab's `400 Bad request` (its revoke service refuses).
 */
export const endpoint = defineEndpoint({ summary: "Revoke a personal access token", access: "write", params: tokenIdParams }, async ({ c, principal, params }) => {
  const token = await findTokenById(params.id);
  if (!token) throw new ApiError(404, { message: "404 Not Found" });
  if (!principal.user.admin && token.userId !== principal.user.id) throw new ApiError(400, { message: "400 Bad request" });
  await revokeToken(token.hash);
  return c.body(null, 204);
});
export const handler = lambda(endpoint);
