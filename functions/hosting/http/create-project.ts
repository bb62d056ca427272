import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { baseUrl } from "../../platform/http/urls.js";
import { paramError } from "../../platform/http/errors.js";
import { projectDetailView } from "../domain/project-view.js";
import { targetNamespace } from "../domain/namespaces.js";
import { configuredStorage } from "./storage-choice.js";
import { createFromBody, projectCreateFields } from "./project-create.js";

/**
 * `repository_storage` places the repository on that storage (administrators; GitLab ignores it from
 * anyone else). Without it the storage is the weighted pick of `repository_storages_weighted`.
 */
export const endpoint = defineEndpoint(
  { summary: "Create a project", access: "write", status: 201, body: z.object(projectCreateFields) },
  async ({ c, principal, body }) => {
    if (!body.name && !body.path) throw paramError("name, path are missing, at least one parameter must be provided");
    const storage = principal.user.admin ? configuredStorage(body.repository_storage) : undefined;
    const project = await createFromBody(principal, await targetNamespace(principal, body.namespace_id), body, storage);
    return projectDetailView(principal, project, baseUrl(c));
  },
);
export const handler = lambda(endpoint);
