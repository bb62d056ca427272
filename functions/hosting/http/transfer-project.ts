import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { int } from "../../platform/http/params.js";
import { baseUrl } from "../../platform/http/urls.js";
import { forbidden, paramError } from "../../platform/http/errors.js";
import { AccessLevel } from "../domain/access.js";
import { findGroup, groupLevel } from "../domain/groups.js";
import { readableNamespace } from "../domain/namespaces.js";
import { projectTransferError, transferProject } from "../domain/project-transfer.js";
import { visibleProject } from "../domain/projects.js";
import { projectDetailView } from "../domain/project-view.js";
import { projectParams } from "./schemas.js";

/**
 * GitLab's project transfer: the project's Owner (`change_namespace`) moves it into a namespace it
 * may read (else `404 Namespace Not Found`) and transfer projects into: a group where it is
 * Maintainer or above, or its own namespace (any, for an administrator).
 */
export const endpoint = defineEndpoint(
  {
    summary: "Transfer a project to a new namespace",
    access: "write",
    params: projectParams,
    body: z.object({ namespace: z.optional(z.union([int(), z.string().check(z.minLength(1), z.maxLength(255))])) }),
  },
  async ({ c, principal, params, body }) => {
    // Required; checked here because a union of an id and a path would call a missing value invalid.
    if (body.namespace === undefined) throw paramError("namespace is missing");
    const { project, level } = await visibleProject(principal, params.id);
    if (level < AccessLevel.owner) throw forbidden();
    const ns = await readableNamespace(principal, String(body.namespace));
    const group = ns.kind === "group" ? await findGroup(ns.id) : undefined;
    if (group && (await groupLevel(principal, group)) < AccessLevel.maintainer) throw projectTransferError("Transfer failed, please contact an admin.");
    const moved = await transferProject(project, ns, group?.visibility);
    return projectDetailView(principal, moved, baseUrl(c));
  },
);
export const handler = lambda(endpoint);
