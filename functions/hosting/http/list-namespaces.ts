import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { bool, pageQuery } from "../../platform/http/params.js";
import { pageRequest, setPageHeaders } from "../../platform/http/pagination.js";
import { baseUrl } from "../../platform/http/urls.js";
import { listNamespaces } from "../domain/namespace-listing.js";
import { namespaceView } from "../domain/namespaces.js";

/** The caller's namespace and groups (an administrator: every namespace), ordered by id. */
export const endpoint = defineEndpoint(
  {
    summary: "List namespaces",
    access: "read",
    query: z.object({
      ...pageQuery,
      search: z.optional(z.string().check(z.maxLength(255))),
      owned_only: z.optional(bool()),
      top_level_only: z.optional(bool()),
    }),
  },
  async ({ c, principal, query }) => {
    const page = pageRequest(query);
    const search = query.search?.trim() || undefined;
    const { namespaces, hasMore, total } = await listNamespaces(principal, { search, ownedOnly: query.owned_only, topLevelOnly: query.top_level_only }, page.offset, page.perPage);
    setPageHeaders(c, page, hasMore, total, namespaces.length);
    return namespaces.map((ns) => namespaceView(ns, baseUrl(c)));
  },
);
export const handler = lambda(endpoint);
