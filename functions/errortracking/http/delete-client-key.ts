import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { notFound } from "../../platform/http/errors.js";
import { maintainedProject } from "../domain/access.js";
import { deleteClientKey } from "../domain/client-keys.js";
import { keyParams } from "./params.js";
import { clientKeyEntity } from "./views.js";

/** 200 with the deleted key (GitLab), 404 for a key of another project or none. */
export const endpoint = defineEndpoint(
  { summary: "Delete an error tracking client key", access: "write", params: keyParams },
  async ({ c, principal, params }) => {
    const project = await maintainedProject(principal, params.id);
    const deleted = await deleteClientKey(project.id, params.key_id);
    if (!deleted) throw notFound();
    return clientKeyEntity(c, deleted);
  },
);
export const handler = lambda(endpoint);
