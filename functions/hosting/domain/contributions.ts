/**
 * What GitLab calls a user's contributions (its contribution events: pushes, including commits,
 * branches and tags written through the API, and comments), kept as one item per user and project
 * with the last time (`keys.ts`, `contributionKey`), for `GET /users/:id/contributed_projects`, which
 * lists the projects of the last year. Recording one never fails the write it follows.
 */
import { putItem, queryAll } from "../../platform/db/table.js";
import { describeError, log } from "../../platform/log.js";
import { CONTRIBUTION_PREFIX, contributionKey } from "./keys.js";

const YEAR_MS = 365 * 86_400_000;

export async function recordContribution(userId: number, projectId: number, now = new Date()): Promise<void> {
  await putItem({ ...contributionKey(userId, projectId), type: "contribution", projectId, lastAt: now.toISOString(), expireAt: Math.floor((now.getTime() + YEAR_MS) / 1000) + 86_400 }).catch((err: unknown) =>
    log.warn("contribution not recorded", { userId, projectId, ...describeError(err) }),
  );
}

/** The projects the user contributed to in the year before `now` (one Query of the user's partition). */
export async function contributedProjectIds(userId: number, now = new Date()): Promise<number[]> {
  const since = new Date(now.getTime() - YEAR_MS).toISOString();
  const items = await queryAll<{ projectId: number }>({
    pk: contributionKey(userId, 0).pk,
    skPrefix: CONTRIBUTION_PREFIX,
    filter: { expression: "lastAt >= :since", values: { ":since": since } },
    projection: ["projectId"],
  });
  return items.map((i) => i.projectId);
}
