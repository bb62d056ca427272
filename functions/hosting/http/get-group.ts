import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { baseUrl } from "../../platform/http/urls.js";
import { groupView, visibleGroup } from "../domain/groups.js";
import { groupParams } from "./schemas.js";

export const endpoint = defineEndpoint({ summary: "One group", access: "public", params: groupParams }, async ({ c, principal, params }) => {
  const { group } = await visibleGroup(principal, params.id);
  return groupView(group, baseUrl(c));
});
export const handler = lambda(endpoint);
