import { lambda } from "../../platform/http/lambda.js";
import { ApiError, unauthorized } from "../../platform/http/errors.js";
import { tokenIdParams, visibleToken } from "./token-by-id.js";
import { rotate, rotationEndpoint } from "./token-rotation.js";

/**
 * Rotates a token by id: its owner's, or any for an administrator. Someone else's or an unknown
 * token is 401, an unknown one 404 for an administrator, as GitLab answers.
 */
export const endpoint = rotationEndpoint({ summary: "Rotate a personal access token", access: "write", params: tokenIdParams }, async ({ principal, params, body }) => {
  const token = await visibleToken(principal, params.id, () => (principal.user.admin ? new ApiError(404, { message: "404 Not Found" }) : unauthorized()));
  return rotate(token, body.expires_at);
});
export const handler = lambda(endpoint);
