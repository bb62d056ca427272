import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { forbidden } from "../../platform/http/errors.js";
import { pageQuery } from "../../platform/http/params.js";
import { pageRequest, slicePage } from "../../platform/http/pagination.js";
import { baseUrl } from "../../platform/http/urls.js";
import { AccessLevel } from "../domain/access.js";
import { visibleGroup } from "../domain/groups.js";
import { groupTransferLocations, publicGroupView } from "../domain/transfer-locations.js";
import { groupParams } from "./schemas.js";

/** GitLab's `GET /groups/:id/transfer_locations`: the group's Owners only (403 below), `search` by name or path. */
export const endpoint = defineEndpoint(
  {
    summary: "List locations available for group transfer",
    access: "read",
    params: groupParams,
    query: z.object({ ...pageQuery, search: z.optional(z.string().check(z.maxLength(255))) }),
  },
  async ({ c, principal, params, query }) => {
    const { group, level } = await visibleGroup(principal, params.id);
    if (level < AccessLevel.owner) throw forbidden();
    const found = await groupTransferLocations(principal, group, query.search);
    const base = baseUrl(c);
    return slicePage(c, pageRequest(query), found).map((g) => publicGroupView(g, base));
  },
);
export const handler = lambda(endpoint);
