/** What every storage-move endpoint shares: administrators only, and the group tier rule. */
import * as z from "zod/mini";
import type { Context } from "hono";
import { notFound } from "../../platform/http/errors.js";
import { pageRequest, setPageHeaders } from "../../platform/http/pagination.js";
import { baseUrl } from "../../platform/http/urls.js";
import type { MoveKind } from "../keys.js";
import { kindInfo, resolveContainer } from "../domain/containers.js";
import { assertGroupMovesAllowed } from "../domain/policy.js";
import { moveViews } from "../domain/view.js";
import type { MoveRecord } from "../domain/records.js";

export const storageName = () => z.string().check(z.minLength(1), z.maxLength(64));

/** Group moves exist only on self-managed Premium/Ultimate. Checked after authentication, so anonymous callers still get 401. */
export function assertKindAvailable(kind: MoveKind): void {
  if (kind === "group") assertGroupMovesAllowed();
}

export async function containerOr404(kind: MoveKind, idOrPath: string) {
  const container = await resolveContainer(kind, idOrPath);
  if (!container) throw notFound(kindInfo[kind].notFound);
  return container;
}

/** Renders one page of records with GitLab's pagination headers (`X-Total` on the last page only: counting would mean reading them all). */
export async function pageOfMoves(
  c: Context,
  query: { page?: number; per_page?: number },
  read: (offset: number, limit: number) => Promise<{ items: MoveRecord[]; hasMore: boolean }>,
) {
  const page = pageRequest(query);
  const result = await read(page.offset, page.perPage);
  setPageHeaders(c, page, result.hasMore, undefined, result.items.length);
  return moveViews(result.items, baseUrl(c));
}
