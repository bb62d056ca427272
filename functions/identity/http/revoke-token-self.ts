import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { unauthorized } from "../../platform/http/errors.js";
import { revokeToken } from "../domain/tokens.js";

/** Revokes the token used for this request; 204 as in GitLab. Any scope may revoke itself. */
export const endpoint = defineEndpoint({ summary: "Revoke the token used for this request", access: "public" }, async ({ c, principal }) => {
  if (!principal) throw unauthorized();
  await revokeToken(principal.token.hash);
  return c.body(null, 204);
});
export const handler = lambda(endpoint);
