import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { baseUrl } from "../../platform/http/urls.js";
import { fullUser } from "../domain/users.js";

export const endpoint = defineEndpoint({ summary: "The authenticated user", access: "read_user" }, async ({ c, principal }) =>
  fullUser(principal.user, baseUrl(c)),
);
export const handler = lambda(endpoint);
