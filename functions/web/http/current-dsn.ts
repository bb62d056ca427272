/**
 * The DSN the settings page shows and the save route answers. Its own module, so the page's function
 * does not carry the save route's third-party client and outbound guard.
 */
import type { Context } from "hono";
import { listClientKeys } from "../../errortracking/domain/client-keys.js";
import { clientKeyEntity } from "../../errortracking/http/views.js";

/** The first active key's DSN (GitLab's `gitlab_dsn`); the DSN without its secret part. */
export async function currentDsn(c: Context, projectId: number): Promise<string> {
  const keys = await listClientKeys(projectId, 0, 20);
  const key = keys.items.find((k) => k.active);
  return key ? clientKeyEntity(c, key).sentry_dsn : "";
}
