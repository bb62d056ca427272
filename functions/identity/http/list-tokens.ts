import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { bool, dateTime, dateTimeToIso as toIso, pageQuery, positiveInt } from "../../platform/http/params.js";
import { pageRequest, setPageHeaders } from "../../platform/http/pagination.js";
import { listTokens, tokenView } from "../domain/tokens.js";


/**
 * GitLab's `GET /personal_access_tokens`: an administrator sees every user's tokens (or one user's,
 * `user_id`); anyone else only its own, whatever `user_id` says. Newest first.
 */
export const endpoint = defineEndpoint(
  {
    summary: "List personal access tokens",
    access: "read",
    query: z.object({
      ...pageQuery,
      user_id: z.optional(positiveInt()),
      state: z.optional(z.enum(["active", "inactive"])),
      revoked: z.optional(bool()),
      search: z.optional(z.string().check(z.maxLength(255))),
      created_before: z.optional(dateTime()),
      created_after: z.optional(dateTime()),
      last_used_before: z.optional(dateTime()),
      last_used_after: z.optional(dateTime()),
    }),
  },
  async ({ c, principal, query }) => {
    const page = pageRequest(query);
    const result = await listTokens(
      {
        userId: principal.user.admin ? query.user_id : principal.user.id,
        state: query.state,
        revoked: query.revoked,
        search: query.search || undefined,
        createdBefore: toIso(query.created_before),
        createdAfter: toIso(query.created_after),
        lastUsedBefore: toIso(query.last_used_before),
        lastUsedAfter: toIso(query.last_used_after),
      },
      page.offset,
      page.perPage,
    );
    setPageHeaders(c, page, result.hasMore, undefined, result.items.length);
    return result.items.map((t) => tokenView(t));
  },
);
export const handler = lambda(endpoint);
