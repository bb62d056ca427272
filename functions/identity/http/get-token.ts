import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { tokenView } from "../domain/tokens.js";
import { tokenIdParams, visibleToken } from "./token-by-id.js";

/** One personal access token: its owner's, or any for an administrator. */
export const endpoint = defineEndpoint({ summary: "One personal access token", access: "read", params: tokenIdParams }, async ({ principal, params }) =>
  tokenView(await visibleToken(principal, params.id)),
);
export const handler = lambda(endpoint);
