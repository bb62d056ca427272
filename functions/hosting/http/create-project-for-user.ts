import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { positiveInt } from "../../platform/http/params.js";
import { baseUrl } from "../../platform/http/urls.js";
import { notFound } from "../../platform/http/errors.js";
import { findUser } from "../../identity/domain/users.js";
import { projectDetailView } from "../domain/project-view.js";
import { targetNamespace } from "../domain/namespaces.js";
import { configuredStorage } from "./storage-choice.js";
import { createFromBody, projectCreateFields } from "./project-create.js";

/**
 * GitLab's `POST /projects/user/:user_id` (administrators): the project is created as that user
 * would create it (`Projects::CreateService` run as the user), so the user is its creator and
 * Owner, and `namespace_id` (default: the user's own namespace) must be one the user may create
 * projects in. `name` is required, `path` defaults to it; the rest is `POST /projects`'s.
 */
export const endpoint = defineEndpoint(
  {
    summary: "Create a project for a user (admin)",
    access: "write",
    admin: true,
    status: 201,
    params: z.object({ user_id: positiveInt() }),
    body: z.object({ ...projectCreateFields, name: z.string().check(z.minLength(1), z.maxLength(255)) }),
  },
  async ({ c, principal, params, body }) => {
    const user = await findUser(params.user_id);
    if (!user) throw notFound("User");
    const owner = { ...principal, user };
    const project = await createFromBody(owner, await targetNamespace(owner, body.namespace_id), body, configuredStorage(body.repository_storage));
    return projectDetailView(principal, project, baseUrl(c));
  },
);
export const handler = lambda(endpoint);
