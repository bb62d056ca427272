import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { int } from "../../platform/http/params.js";
import { baseUrl } from "../../platform/http/urls.js";
import { forkProject, forkVisibility } from "../domain/forks.js";
import { targetNamespace } from "../domain/namespaces.js";
import { projectDetailView, simpleProjectView } from "../domain/project-view.js";
import { codeReader } from "./repository-access.js";
import { projectParams, visibility } from "./schemas.js";
import { pathSegment } from "./paths.js";

const namespaceRef = z.union([int(), z.string().check(z.minLength(1), z.maxLength(255))]);

/**
 * GitLab's fork: the caller must read the source's code and may create projects in the target
 * namespace (`namespace_id`, `namespace_path` or the older `namespace`, else the caller's own).
 * 201 with the fork, whose `forked_from_project` is the source; a taken path is 409.
 */
export const endpoint = defineEndpoint(
  {
    summary: "Fork a project",
    access: "write",
    status: 201,
    params: projectParams,
    body: z.object({
      namespace_id: z.optional(namespaceRef),
      namespace_path: z.optional(z.string().check(z.minLength(1), z.maxLength(255))),
      namespace: z.optional(namespaceRef),
      name: z.optional(z.string().check(z.minLength(1), z.maxLength(255))),
      path: z.optional(pathSegment),
      description: z.optional(z.string().check(z.maxLength(2000))),
      visibility: z.optional(visibility),
    }),
  },
  async ({ c, principal, params, body }) => {
    const { project: source } = await codeReader(principal, params.id);
    const { namespace: ns, group } = await targetNamespace(principal, body.namespace_id ?? body.namespace_path ?? body.namespace);
    const fork = await forkProject(principal, source, ns, {
      group,
      name: body.name,
      path: body.path,
      description: body.description,
      visibility: forkVisibility(source.visibility, group?.visibility, body.visibility),
    });
    const base = baseUrl(c);
    return { ...(await projectDetailView(principal, fork, base)), forked_from_project: simpleProjectView(source, base) };
  },
);
export const handler = lambda(endpoint);
