import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { forbidden } from "../../platform/http/errors.js";
import { pageQuery } from "../../platform/http/params.js";
import { pageRequest, slicePage } from "../../platform/http/pagination.js";
import { baseUrl } from "../../platform/http/urls.js";
import { AccessLevel } from "../domain/access.js";
import { visibleProject } from "../domain/projects.js";
import { projectTransferLocations, publicGroupView } from "../domain/transfer-locations.js";
import { projectParams } from "./schemas.js";

/**
 * GitLab's `GET /projects/:id/transfer_locations`: for the project's Owners (who may transfer it;
 * 403 below), the groups the caller may transfer projects into, `search` by name or path.
 */
export const endpoint = defineEndpoint(
  {
    summary: "List groups available for project transfer",
    access: "read",
    params: projectParams,
    query: z.object({ ...pageQuery, search: z.optional(z.string().check(z.maxLength(255))) }),
  },
  async ({ c, principal, params, query }) => {
    const { project, level } = await visibleProject(principal, params.id);
    if (level < AccessLevel.owner) throw forbidden();
    const found = await projectTransferLocations(principal, project.namespace.kind === "group" ? project.namespace.id : undefined, query.search);
    const base = baseUrl(c);
    return slicePage(c, pageRequest(query), found).map((g) => publicGroupView(g, base));
  },
);
export const handler = lambda(endpoint);
