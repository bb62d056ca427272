import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { READ_LEVEL } from "../domain/access.js";
import { getError, releaseHealth } from "../domain/errors.js";
import { dailyFrequency, hourlyFrequency } from "../domain/frequency.js";
import { issueIdParam, uiPathParams } from "./params.js";
import { errorNotFound, uiProject } from "./ui.js";
import { detailedErrorEntity } from "./views.js";
import * as thirdParty from "../thirdparty/backend.js";

/** `GET …/-/error_tracking/:issue_id/details.json`: `{error: DetailedErrorEntity}` + release health and the 30-day graph. */
export const endpoint = defineEndpoint(
  { summary: "One error in detail (UI JSON)", access: "read", params: z.object({ ...uiPathParams, issue_id: issueIdParam }) },
  async ({ c, principal, params }) => {
    const { project, tracker } = await uiProject(c, principal, params, READ_LEVEL);
    if (tracker) return thirdParty.errorDetails(tracker, params.issue_id);
    const error = await getError(project.id, params.issue_id);
    if (!error) throw errorNotFound();
    const [health, frequency, daily] = await Promise.all([
      releaseHealth(project.id, [error.firstRelease ?? "", error.lastRelease ?? ""]),
      hourlyFrequency(project.id, error.errorId),
      dailyFrequency(project.id, error.errorId),
    ]);
    return { error: detailedErrorEntity(c, project, error, health, frequency, daily) };
  },
);
export const handler = lambda(endpoint);
