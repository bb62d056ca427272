import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { UPDATE_LEVEL } from "../domain/access.js";
import { updateStatus } from "../domain/errors.js";
import { hourlyFrequency } from "../domain/frequency.js";
import { STATUSES, type ErrorStatus } from "../domain/keys.js";
import { detail, findIssue, issueIdParams, notFound, trackerUser } from "./access.js";
import { trackerIssue } from "./views.js";

/** `PUT /api/0/issues/{id}/` `{status}`: Developer+ with an `api` token; answers the updated issue. */
export const endpoint = defineEndpoint(
  { summary: "Tracker API: update an issue's status", access: "public", params: issueIdParams, body: z.record(z.string(), z.unknown()) },
  async ({ c, principal, params, body }) => {
    const status = body.status as ErrorStatus;
    if (!STATUSES.includes(status)) throw detail(400, "status: Invalid status");
    const { project } = await findIssue(trackerUser(principal, true), Number(params.issue_id), UPDATE_LEVEL);
    const updated = await updateStatus(project.id, Number(params.issue_id), status);
    if (!updated) throw notFound();
    return trackerIssue(c, project, updated, await hourlyFrequency(project.id, updated.errorId));
  },
);
export const handler = lambda(endpoint);
