import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { paramError } from "../../platform/http/errors.js";
import { baseUrl } from "../../platform/http/urls.js";
import { maintainedProject } from "../domain/access.js";
import { createHook } from "../hooks/store.js";
import { projectParams } from "./params.js";
import { changeOf, hookBody, hookEntity } from "./hooks.js";

/** 201 with the hook. The URL must pass the outbound filter (local addresses need the administrator's permission). */
export const endpoint = defineEndpoint(
  { summary: "Add a project hook", access: "write", status: 201, params: projectParams, body: hookBody },
  async ({ c, principal, params, body }) => {
    const project = await maintainedProject(principal, params.id);
    if (body.url === undefined) throw paramError("url is missing");
    const change = await changeOf(body);
    return hookEntity(await createHook(project.id, { ...change, url: change.url!, origin: baseUrl(c) }));
  },
);
export const handler = lambda(endpoint);
