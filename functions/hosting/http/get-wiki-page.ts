import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { getPage } from "../domain/wikis.js";
import { pageView, readableWikiGroup, wikiPageParams } from "./wiki-common.js";

export const endpoint = defineEndpoint({ summary: "One group wiki page", access: "public", params: wikiPageParams }, async ({ principal, params }) => {
  const group = await readableWikiGroup(principal, params.id);
  return pageView(await getPage(group, params.slug));
});
export const handler = lambda(endpoint);
