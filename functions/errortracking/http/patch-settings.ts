import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { maintainedProject } from "../domain/access.js";
import { saveSetting, settingEntity } from "../domain/settings.js";
import { grapeBooleans, projectParams } from "./params.js";

/**
 * Enable or disable (`active`, required) and optionally switch the backend (`integrated`). 404
 * without an existing setting, as GitLab. Parameters may come in the query (gitbeaker, go-gitlab).
 */
export const endpoint = defineEndpoint(
  { summary: "Enable or disable error tracking", access: "write", params: projectParams, body: z.record(z.string(), z.unknown()) },
  async ({ principal, params, body }) => {
    const project = await maintainedProject(principal, params.id);
    const { active, integrated } = grapeBooleans(body, { active: "required", integrated: "optional" });
    return settingEntity(await saveSetting(project.id, { active: active!, integrated }, { create: false }));
  },
);
export const handler = lambda(endpoint);
