import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { ApiError } from "../../platform/http/errors.js";
import { READ_LEVEL } from "../domain/access.js";
import { STATUSES, type ErrorStatus } from "../domain/keys.js";
import { hourlyFrequency } from "../domain/frequency.js";
import { listErrors, type SortOrder } from "../domain/read.js";
import { sentryExternalUrl } from "../domain/settings.js";
import { uiPathParams } from "./params.js";
import { uiProject } from "./ui.js";
import { errorEntity } from "./views.js";
import * as thirdParty from "../thirdparty/backend.js";

const SORTS: SortOrder[] = ["last_seen", "first_seen", "frequency"];

/**
 * `GET /:namespace/:project/-/error_tracking.json` (GitLab `error_tracking#index`): 20 per page.
 * `pagination` has `next`/`previous` only when such a page exists, as GitLab's Sentry pagination.
 */
export const endpoint = defineEndpoint(
  {
    summary: "List a project's errors (UI JSON)",
    access: "read",
    params: z.object(uiPathParams),
    query: z.object({
      search_term: z.optional(z.string().check(z.maxLength(200))),
      sort: z.optional(z.string()),
      cursor: z.optional(z.string().check(z.maxLength(2000))),
      issue_status: z.optional(z.string()),
      // Not in GitLab's UI: only errors seen with this release / environment.
      release: z.optional(z.string().check(z.maxLength(200))),
      environment: z.optional(z.string().check(z.maxLength(200))),
    }),
  },
  async ({ c, principal, params, query }) => {
    const { project, setting, tracker } = await uiProject(c, principal, params, READ_LEVEL);
    const status = (query.issue_status || "unresolved") as ErrorStatus;
    if (!STATUSES.includes(status)) throw new ApiError(400, { message: "Bad Request: Invalid issue_status" });
    const sort = (query.sort || "last_seen") as SortOrder;
    if (!SORTS.includes(sort)) throw new ApiError(400, { message: "Bad Request: Invalid value for sort param" });
    const filters = { release: query.release?.trim() || undefined, environment: query.environment?.trim() || undefined };
    const searchTerm = query.search_term?.trim() || undefined;
    if (tracker) return thirdParty.listErrors(tracker, { status, sort, cursor: query.cursor || undefined, searchTerm, ...filters });
    const page = await listErrors({ projectId: project.id, status, sort, cursor: query.cursor || undefined, searchTerm, ...filters, limit: 20 });
    // One bounded Query per error on the page (at most 20) for its hourly counts.
    const frequencies = await Promise.all(page.errors.map((e) => hourlyFrequency(project.id, e.errorId)));
    return {
      errors: page.errors.map((e, i) => errorEntity(c, project, e, frequencies[i]!)),
      pagination: thirdParty.gitlabPagination(page),
      external_url: sentryExternalUrl(setting),
    };
  },
);
export const handler = lambda(endpoint);
