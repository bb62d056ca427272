import { lambda } from "../../platform/http/lambda.js";
import { ApiError } from "../../platform/http/errors.js";
import { rotate, rotationEndpoint } from "./token-rotation.js";

/**
 * Rotates the token used for this request (`api` or `self_rotate` scope). A browser session has no
 * token of its own to rotate: GitLab's 405 for a request not made with a personal access token.
 */
export const endpoint = rotationEndpoint({ summary: "Rotate the token used for this request", access: "self_rotate" }, async ({ principal, body }) => {
  if (principal.session) throw new ApiError(405, { message: "405 Method Not Allowed" });
  return rotate(principal.token, body.expires_at);
});
export const handler = lambda(endpoint);
