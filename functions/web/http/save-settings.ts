import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { ApiError } from "../../platform/http/errors.js";
import { saveSetting, settingEntity } from "../../errortracking/domain/settings.js";
import { saveThirdParty } from "../../errortracking/thirdparty/settings.js";
import { maintainedOrNothing, pathParams } from "../ui/project-page.js";
import { currentDsn } from "./current-dsn.js";

const trackerProject = z.object({ slug: z.string().check(z.minLength(1), z.maxLength(255)), name: z.string().check(z.maxLength(255)), organization_slug: z.string().check(z.minLength(1), z.maxLength(255)), organization_name: z.string().check(z.maxLength(255)) });

/**
 * `PATCH …/-/settings/operations` (GitLab's operations settings, as JSON): saves the error tracking
 * setting from the settings page. Answers the setting entity plus the DSN when integrated.
 */
export const endpoint = defineEndpoint(
  {
    summary: "Save error tracking settings (settings page)",
    access: "write",
    params: z.object(pathParams),
    body: z.object({
      enabled: z.boolean(),
      integrated: z.boolean(),
      api_host: z.optional(z.string().check(z.maxLength(255))),
      token: z.optional(z.string().check(z.maxLength(255))),
      project: z.optional(trackerProject),
    }),
  },
  async ({ c, principal, params, body }) => {
    const found = await maintainedOrNothing(principal, params);
    if (!found) throw new ApiError(404, { message: "404 Not Found" });
    const id = found.project.id;
    const setting = body.integrated
      ? await saveSetting(id, { active: body.enabled, integrated: true }, { create: true })
      : await saveThirdParty(id, { enabled: body.enabled, apiHost: body.api_host, token: body.token, project: body.project });
    const dsn = setting.enabled && setting.integrated ? await currentDsn(c, id) : null;
    return { setting: settingEntity(setting), dsn };
  },
);
export const handler = lambda(endpoint);
