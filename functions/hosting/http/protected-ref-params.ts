/**
 * What the protected branches and tags routes share: the path parameters, GitLab's access levels
 * for them and its authorisation (`authorize_admin_project`: Maintainer+, 403 below; a project the
 * caller cannot see is 404).
 */
import * as z from "zod/mini";
import type { Principal } from "../../identity/domain/auth.js";
import { forbidden } from "../../platform/http/errors.js";
import { idOrPath, int } from "../../platform/http/params.js";
import { AccessLevel } from "../domain/access.js";
import { visibleProject } from "../domain/projects.js";

/** `:name` arrives URL-encoded (`release%2F*`); the router hands it over decoded. */
export const protectedRefParams = z.object({ id: idOrPath(), name: z.string().check(z.minLength(1), z.maxLength(255)) });

/** `ProtectedRefAccess.allowed_access_levels` (self-managed): No one, Developers + Maintainers, Maintainers, admins. */
export const refAccessLevel = () => z.pipe(int(), z.literal([0, 30, 40, 60]));

export async function maintainedProject(principal: Principal, id: string) {
  const { project, level } = await visibleProject(principal, id);
  if (level < AccessLevel.maintainer) throw forbidden();
  return { project, level };
}
