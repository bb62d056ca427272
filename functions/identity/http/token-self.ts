import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { unauthorized } from "../../platform/http/errors.js";
import { tokenView } from "../domain/tokens.js";

/** Any valid token may inspect itself, whatever its scopes (GitLab behaviour). */
export const endpoint = defineEndpoint({ summary: "The token used for this request", access: "public" }, async ({ principal }) => {
  if (!principal) throw unauthorized();
  return tokenView(principal.token);
});
export const handler = lambda(endpoint);
