import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { positiveInt } from "../../platform/http/params.js";
import { visibleProject } from "../domain/projects.js";
import { findGroup } from "../domain/groups.js";
import { projectShareView, shareProject } from "../domain/project-shares.js";
import { accessLevel, projectParams } from "./schemas.js";

/**
 * GitLab's `POST /projects/:id/share`: the project (Maintainer+) shared with `group_id` (a group the
 * caller is a member of) at `group_access`, until `expires_at`; 201 with the link.
 */
export const endpoint = defineEndpoint(
  {
    summary: "Share a project with a group",
    access: "write",
    status: 201,
    params: projectParams,
    body: z.object({ group_id: positiveInt(), group_access: accessLevel(), expires_at: z.optional(z.nullable(z.iso.date())) }),
  },
  async ({ principal, params, body }) => {
    const [target, group] = await Promise.all([visibleProject(principal, params.id), findGroup(body.group_id)]);
    return projectShareView(await shareProject(principal, target, group, { groupAccess: body.group_access, expiresAt: body.expires_at ?? null }));
  },
);
export const handler = lambda(endpoint);
