import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { summarizeTags, tagValuesOf } from "../domain/tags.js";
import { findIssue, issueIdParams, trackerUser } from "./access.js";

/**
 * `GET /api/0/issues/{id}/tags/?key=…`: per tag key, how many events carried it (`totalValues`) and
 * its most frequent values, from the counters the consumer keeps per value (`domain/tags.ts`).
 */
export const endpoint = defineEndpoint(
  { summary: "Tracker API: tags of an issue", access: "public", params: issueIdParams, query: z.object({ key: z.optional(z.string().check(z.maxLength(32))) }) },
  async ({ principal, params, query }) => {
    const { project, error } = await findIssue(trackerUser(principal, false), Number(params.issue_id));
    const values = await tagValuesOf(project.id, error.errorId);
    return summarizeTags(query.key ? values.filter((v) => v.key === query.key) : values);
  },
);
export const handler = lambda(endpoint);
