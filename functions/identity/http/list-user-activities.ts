import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { dateTime, dateTimeToIso, pageQuery } from "../../platform/http/params.js";
import { pageRequest, setPageHeaders } from "../../platform/http/pagination.js";
import { activeUsers } from "../domain/user-activity.js";

/** Six months before `now`, the day GitLab's `from` defaults to. */
const sixMonthsAgo = (now = new Date()) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 6, now.getUTCDate())).toISOString().slice(0, 10);

/**
 * GitLab's `GET /user/activities`: each user's last activity day on or after `from` (a date or a
 * time, its UTC day counts; default six months ago), oldest first; `X-Total` on the last page (the
 * range is read only as far as the page). A user's activity is its tokens' last use, noted on the
 * user's activity item on a token's first use of a day (`user-activity.ts`). Administrators see every user, others the users
 * without a private profile.
 */
export const endpoint = defineEndpoint(
  {
    summary: "List users' last activity",
    access: "read_user",
    query: z.object({ ...pageQuery, from: z.optional(dateTime()) }),
  },
  async ({ c, principal, query }) => {
    const page = pageRequest(query);
    const visible = (u: { privateProfile?: boolean }) => principal.user.admin || !u.privateProfile;
    const { rows, hasMore } = await activeUsers(dateTimeToIso(query.from)?.slice(0, 10) ?? sixMonthsAgo(), page.offset, page.perPage, visible);
    setPageHeaders(c, page, hasMore, undefined, rows.length);
    return rows.map((r) => ({ username: r.user.username, last_activity_on: r.day, last_activity_at: r.day }));
  },
);
export const handler = lambda(endpoint);
