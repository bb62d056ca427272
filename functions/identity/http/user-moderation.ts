/**
 * GitLab's user moderation actions beside block and ban (`user_moderation.md`): deactivate and
 * reactivate, approve and reject. Administrators only; an unknown user is `404 User Not Found`.
 *
 * No account here is ever pending approval: users are created by administrators, there is no
 * sign-up and so no "require admin approval" setting. Approve and reject therefore answer as GitLab
 * does for a user who is not pending approval (409).
 */
import type { Endpoint } from "../../platform/http/endpoint.js";
import { ApiError, conflict } from "../../platform/http/errors.js";
import type { User } from "../domain/users.js";
import { changeState } from "../domain/user-admin.js";
import { lastActivityOn } from "../domain/user-activity.js";
import { userAction } from "./user-schemas.js";

/** GitLab's `blocked?` holds for banned users too. */
const blocked = (user: User) => user.state === "blocked" || user.state === "banned";

/** GitLab's `deactivate_dormant_users_period` default: only users inactive this long may be deactivated. */
export const DORMANT_DAYS = 90;

/** Whether a user last active on `day` has been idle for `DORMANT_DAYS` (GitLab's `can_be_deactivated?`). */
export function dormant(day: string | undefined, now = Date.now()): boolean {
  return !day || Date.parse(`${day}T00:00:00Z`) <= now - DORMANT_DAYS * 86_400_000;
}

/**
 * `POST /users/:id/deactivate`: `true`; `null` for a user already deactivated (GitLab's `break`);
 * 403 for a blocked or banned user and for one active in the last 90 days, as GitLab's
 * `Users::DeactivateService` answers.
 */
export const deactivate = (): Endpoint =>
  userAction("Deactivate a user (admin)", async (user) => {
    if (user.state === "deactivated") return null;
    if (blocked(user)) throw new ApiError(403, { message: "Error occurred. A blocked user cannot be deactivated" });
    if (!dormant(await lastActivityOn(user.id))) throw new ApiError(403, { message: `The user you are trying to deactivate has been active in the past ${DORMANT_DAYS} days and cannot be deactivated` });
    if (!(await changeState(user, ["active"], "deactivated"))) throw new ApiError(403, { message: "Error occurred. A blocked user cannot be deactivated" });
    return true;
  });

/** `POST /users/:id/activate`: `true` for a deactivated user, `false` for an active one, 403 for a blocked or banned one. */
export const activate = (): Endpoint =>
  userAction("Reactivate a deactivated user (admin)", async (user) => {
    if (blocked(user)) throw new ApiError(403, { message: "403 Forbidden - A blocked user must be unblocked to be activated" });
    return !!(await changeState(user, ["deactivated"], "active"));
  });

export const approve = (): Endpoint =>
  userAction("Approve a user pending approval (admin)", async () => {
    throw conflict("The user you are trying to approve is not pending approval");
  });

export const reject = (): Endpoint =>
  userAction("Reject a user pending approval (admin)", async () => {
    throw conflict("User does not have a pending request");
  });

/**
 * `PATCH /users/:id/disable_two_factor`: there is no two-factor authentication here, so no user has
 * it enabled: GitLab's 400 for such a user, after its 403 for an administrator.
 */
export const disableTwoFactor = (): Endpoint =>
  userAction("Disable two-factor authentication for a user (admin)", async (user) => {
    if (user.admin) throw new ApiError(403, { message: "403 Forbidden - Two-factor authentication for admins cannot be disabled via the API. Use the Rails console" });
    throw new ApiError(400, { message: "400 Bad request - Two-factor authentication is not enabled for this user" });
  });
