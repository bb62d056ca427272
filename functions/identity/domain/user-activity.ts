/**
 * A user's last activity (GitLab's `last_activity_on`): the newest `lastUsedAt` of its tokens, which
 * every API and Git request made with a token records (at most every 10 minutes, `recordTokenUse`).
 * Nothing more is written per request: the day is read where it is needed, from the user's token
 * range (one Query) or the all-tokens index (`GET /user/activities`).
 */
import { queryAll, GSI1 } from "../../platform/db/table.js";
import { tokensOfUserIndex } from "./keys.js";

/** `YYYY-MM-DD` of the user's last recorded token use, or undefined when none was ever used. */
export async function lastActivityOn(userId: number): Promise<string | undefined> {
  const tokens = await queryAll<{ lastUsedAt?: string | null }>({ index: GSI1, pk: tokensOfUserIndex(userId, 0).gsi1pk, projection: ["lastUsedAt"] });
  const newest = tokens.reduce<string>((max, t) => (t.lastUsedAt && t.lastUsedAt > max ? t.lastUsedAt : max), "");
  return newest ? newest.slice(0, 10) : undefined;
}
