/**
 * A user's last activity (GitLab's `last_activity_on`): the newest `lastUsedAt` of its tokens, which
 * every API and Git request made with a token records (at most every 10 minutes, `recordTokenUse`).
 * Nothing more is written per request: the day is read where it is needed, from the user's token
 * range (one Query) or the all-tokens index (`GET /user/activities`).
 */
import { queryAll, GSI1, GSI2 } from "../../platform/db/table.js";
import { allTokensIndex, tokensOfUserIndex } from "./keys.js";

/** `YYYY-MM-DD` of the user's last recorded token use, or undefined when none was ever used. */
export async function lastActivityOn(userId: number): Promise<string | undefined> {
  const tokens = await queryAll<{ lastUsedAt?: string | null }>({ index: GSI1, pk: tokensOfUserIndex(userId, 0).gsi1pk, projection: ["lastUsedAt"] });
  const newest = tokens.reduce<string>((max, t) => (t.lastUsedAt && t.lastUsedAt > max ? t.lastUsedAt : max), "");
  return newest ? newest.slice(0, 10) : undefined;
}

/**
 * Each user's last activity day on or after `from` (`YYYY-MM-DD`), by user id: one Query of the
 * all-tokens index, filtered inside it on `lastUsedAt`.
 */
export async function activitiesSince(from: string): Promise<Map<number, string>> {
  const tokens = await queryAll<{ userId: number; lastUsedAt: string }>({
    index: GSI2,
    pk: allTokensIndex(0).gsi2pk,
    filter: { expression: "lastUsedAt >= :from", values: { ":from": from } },
    projection: ["userId", "lastUsedAt"],
  });
  const days = new Map<number, string>();
  for (const t of tokens) if (t.lastUsedAt.slice(0, 10) > (days.get(t.userId) ?? "")) days.set(t.userId, t.lastUsedAt.slice(0, 10));
  return days;
}
