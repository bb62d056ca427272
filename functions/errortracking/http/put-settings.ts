import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { maintainedProject } from "../domain/access.js";
import { saveSetting, settingEntity } from "../domain/settings.js";
import { grapeBooleans, projectParams } from "./params.js";

/** GitLab 15.10+: creates the setting when missing; `active` and `integrated` both required. */
export const endpoint = defineEndpoint(
  { summary: "Create or update error tracking settings", access: "write", params: projectParams, body: z.record(z.string(), z.unknown()) },
  async ({ principal, params, body }) => {
    const project = await maintainedProject(principal, params.id);
    const { active, integrated } = grapeBooleans(body, { active: "required", integrated: "required" });
    return settingEntity(await saveSetting(project.id, { active: active!, integrated: integrated! }, { create: true }));
  },
);
export const handler = lambda(endpoint);
