import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { baseUrl } from "../../platform/http/urls.js";
import { groupDetailView, visibleGroup } from "../domain/groups.js";
import { sharedWithGroupsView } from "../domain/group-shares.js";
import { groupParams } from "./schemas.js";
import { withBranchProtection } from "./group-settings.js";

export const endpoint = defineEndpoint({ summary: "One group", access: "public", params: groupParams }, async ({ c, principal, params }) => {
  const { group } = await visibleGroup(principal, params.id);
  return withBranchProtection(groupDetailView(group, baseUrl(c), await sharedWithGroupsView(principal, group)), group);
});
export const handler = lambda(endpoint);
