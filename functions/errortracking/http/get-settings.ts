import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { notFound } from "../../platform/http/errors.js";
import { maintainedProject } from "../domain/access.js";
import { findSetting, settingEntity } from "../domain/settings.js";
import { projectParams } from "./params.js";

/** Maintainer+; like every GitLab GET, a `read_api` token is enough (writes need `api`). */
export const endpoint = defineEndpoint(
  { summary: "Get a project's error tracking settings", access: "read", params: projectParams },
  async ({ principal, params }) => {
    const project = await maintainedProject(principal, params.id);
    const setting = await findSetting(project.id);
    if (!setting) throw notFound("Error Tracking Setting");
    return settingEntity(setting);
  },
);
export const handler = lambda(endpoint);
