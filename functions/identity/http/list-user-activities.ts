import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { pageQuery } from "../../platform/http/params.js";
import { pageRequest, slicePage } from "../../platform/http/pagination.js";
import { findUsers } from "../domain/users.js";
import { activitiesSince } from "../domain/user-activity.js";

/** Six months before `now`, the day GitLab's `from` defaults to. */
const sixMonthsAgo = (now = new Date()) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 6, now.getUTCDate())).toISOString().slice(0, 10);

/**
 * GitLab's `GET /user/activities`: each user's last activity day on or after `from` (a date or a
 * time, its day counts; default six months ago), oldest first, with `X-Total`. A user's activity
 * is its tokens' last use (`user-activity.ts`). Administrators see every user, others the users
 * without a private profile.
 */
export const endpoint = defineEndpoint(
  {
    summary: "List users' last activity",
    access: "read_user",
    query: z.object({ ...pageQuery, from: z.optional(z.union([z.iso.date(), z.iso.datetime({ offset: true, local: true })])) }),
  },
  async ({ c, principal, query }) => {
    const days = await activitiesSince(query.from?.slice(0, 10) ?? sixMonthsAgo());
    const ids = [...days.keys()];
    const users = (await findUsers(ids)).filter((u) => u && (principal.user.admin || !u.privateProfile));
    const rows = users
      .map((u) => ({ username: u!.username, id: u!.id, day: days.get(u!.id)! }))
      .sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : a.id - b.id));
    return slicePage(c, pageRequest(query), rows).map((r) => ({ username: r.username, last_activity_on: r.day, last_activity_at: r.day }));
  },
);
export const handler = lambda(endpoint);
