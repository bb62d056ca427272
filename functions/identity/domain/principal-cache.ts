/**
 * Token hash → principal, kept for a few seconds per process (`FORGELINE_AUTH_CACHE_MS`, default
 * 3000; 0 disables). It halves the table reads of every authenticated request; the price is that a
 * revoked token or a blocked user may still work on *another* instance for at most that long. The
 * instance that revokes a token forgets it at once.
 */
export const principalCache = new Map<string, { principal: unknown; until: number }>();

export const principalCacheMs = () => Number(process.env.FORGELINE_AUTH_CACHE_MS ?? 3000);

export function forgetCachedToken(hash: string): void {
  principalCache.delete(hash);
}

/** Forgets every cached principal of a user whose state changed (blocked, banned, deleted). */
export function forgetCachedUser(userId: number): void {
  for (const [hash, entry] of principalCache) {
    if ((entry.principal as { user?: { id?: number } }).user?.id === userId) principalCache.delete(hash);
  }
}
