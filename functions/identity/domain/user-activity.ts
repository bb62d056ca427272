/**
 * A user's last activity (GitLab's `last_activity_on`): the newest `lastUsedAt` of its tokens, which
 * every API and Git request made with a token records (at most every 10 minutes, `recordTokenUse`).
 * A token's first use of a day also writes the day on the user's activity item, which
 * `GET /user/activities` Queries by day; deactivation reads the user's token range (one Query).
 */
import { queryAll, queryPage, GSI1 } from "../../platform/db/table.js";
import { tokensOfUserIndex, userActivityItem } from "./keys.js";
import { findUsers, type User } from "./users.js";

/** `YYYY-MM-DD` of the user's last recorded token use, or undefined when none was ever used. */
export async function lastActivityOn(userId: number): Promise<string | undefined> {
  const tokens = await queryAll<{ lastUsedAt?: string | null }>({ index: GSI1, pk: tokensOfUserIndex(userId, 0).gsi1pk, projection: ["lastUsedAt"] });
  const newest = tokens.reduce<string>((max, t) => (t.lastUsedAt && t.lastUsedAt > max ? t.lastUsedAt : max), "");
  return newest ? newest.slice(0, 10) : undefined;
}

/**
 * A page of the users active on or after `from` (`YYYY-MM-DD`), by day (oldest first) then id, with
 * the day: Queries of the `ACTIVE_USERS` day range (`userActivityItem`), each as long as the rows
 * still wanted, and the users they name read in one batch. `visible` leaves users out (private
 * profiles) before the offset counts, so the range is read only as far as the page reaches. A
 * user's day is written on a token's first use of a day (`recordTokenUse`).
 */
export async function activeUsers(from: string, offset: number, limit: number, visible: (user: User) => boolean) {
  const want = offset + limit + 1;
  const rows: Array<{ user: User; day: string }> = [];
  for (let skFrom = from; rows.length < want; ) {
    const page = await queryPage<{ gsi1sk: string }>({ index: GSI1, pk: ACTIVE_USERS, skFrom, ascending: true, offset: 0, limit: want - rows.length, projection: ["gsi1sk"] });
    const users = await findUsers(page.items.map((i) => Number(i.gsi1sk.slice(11))));
    users.forEach((user, i) => user && visible(user) && rows.push({ user, day: page.items[i]!.gsi1sk.slice(0, 10) }));
    if (!page.hasMore) break;
    // Sort keys have one length: the next key after the last read is past it with a space appended.
    skFrom = page.items[page.items.length - 1]!.gsi1sk + " ";
  }
  return { rows: rows.slice(offset, offset + limit), hasMore: rows.length > offset + limit };
}

const ACTIVE_USERS = userActivityItem(0, "").gsi1pk;
