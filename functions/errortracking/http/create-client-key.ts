import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { maintainedProject } from "../domain/access.js";
import { createClientKey } from "../domain/client-keys.js";
import { projectParams } from "./params.js";
import { clientKeyEntity } from "./views.js";

/** 201 with the new key; the only answer that carries its secret (`sentry_dsn_with_secret`). */
export const endpoint = defineEndpoint(
  { summary: "Create an error tracking client key", access: "write", status: 201, params: projectParams },
  async ({ c, principal, params }) => {
    const project = await maintainedProject(principal, params.id);
    const { record, secret } = await createClientKey(project.id);
    return clientKeyEntity(c, record, secret);
  },
);
export const handler = lambda(endpoint);
