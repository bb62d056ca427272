import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { paramError } from "../../platform/http/errors.js";
import { UPDATE_LEVEL } from "../domain/access.js";
import { updateStatus } from "../domain/errors.js";
import { STATUSES, type ErrorStatus } from "../domain/keys.js";
import { issueIdParam, uiPathParams } from "./params.js";
import { errorNotFound, uiProject } from "./ui.js";
import * as thirdParty from "../thirdparty/backend.js";

/**
 * `PUT …/-/error_tracking/:issue_id.json` `{status}`. No GitLab issue is linked to integrated errors
 * here, so `closed_issue_iid` is always null; `updated` is true once the status is saved (GitLab).
 */
export const endpoint = defineEndpoint(
  {
    summary: "Resolve, ignore or reopen an error (UI JSON)",
    access: "write",
    params: z.object({ ...uiPathParams, issue_id: issueIdParam }),
    // A record, not an object schema: the endpoint helper would reject keys the UI adds.
    body: z.record(z.string(), z.unknown()),
  },
  async ({ c, principal, params, body }) => {
    const { project, tracker } = await uiProject(c, principal, params, UPDATE_LEVEL);
    const status = body.status as ErrorStatus;
    if (body.status === undefined) throw paramError("status is missing");
    if (!STATUSES.includes(status)) throw paramError("status does not have a valid value");
    if (tracker) return thirdParty.updateStatus(tracker, params.issue_id, status);
    const updated = await updateStatus(project.id, params.issue_id, status);
    if (!updated) throw errorNotFound();
    return { result: { status: "success", updated: true, closed_issue_iid: null } };
  },
);
export const handler = lambda(endpoint);
