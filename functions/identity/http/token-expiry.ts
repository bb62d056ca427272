/** GitLab's default maximum lifetime of a personal access token. */
export const MAX_LIFETIME_DAYS = 365;

/** The UTC day `offset` days from `now`, `YYYY-MM-DD`. */
export const dayFrom = (offset: number, now = new Date()) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + offset)).toISOString().slice(0, 10);

/**
 * What is wrong with an `expires_at` (as GitLab's validation words it, after the attribute's name),
 * if anything: it must be a day still ahead (a token stops working at the start of that day) and
 * within the maximum lifetime.
 */
export function expiryProblem(expiresAt: string | undefined, now = new Date()): string | undefined {
  if (expiresAt === undefined) return undefined;
  if (expiresAt <= dayFrom(0, now)) return "must be in the future";
  if (expiresAt > dayFrom(MAX_LIFETIME_DAYS, now)) return `must be before ${dayFrom(MAX_LIFETIME_DAYS + 1, now)}`;
  return undefined;
}
