/**
 * GitLab's account-state actions (`POST /users/:id/block|unblock|ban|unban`, admin only, 201) and
 * their answers, which python-gitlab relies on: `true` when the state changed; block of a blocked
 * user answers `null` and unblock of a user that is not blocked `false` (of a deactivated one 403);
 * ban and unban from the wrong state answer 403 with GitLab's message.
 */
import { ApiError } from "../../platform/http/errors.js";
import { findUser } from "../domain/users.js";
import { changeState } from "../domain/user-admin.js";
import { userAction } from "./user-schemas.js";

const refused = (verb: string, state: string) => new ApiError(403, { message: `You cannot ${verb} ${state} users.` });

export const block = userAction("Block a user (admin)", async (user) => {
  if (user.state === "blocked") return null;
  return (await changeState(user, ["active", "banned", "deactivated"], "blocked")) ? true : null;
});

export const unblock = userAction("Unblock a user (admin)", async (user) => {
  if (user.state === "deactivated") throw new ApiError(403, { message: "403 Forbidden - Deactivated users cannot be unblocked by the API" });
  return !!(await changeState(user, ["blocked"], "active"));
});

export const ban = userAction("Ban a user (admin)", async (user) => {
  if (!(await changeState(user, ["active"], "banned"))) throw refused("ban", (await findUser(user.id))?.state ?? user.state);
  return true;
});

export const unban = userAction("Unban a user (admin)", async (user) => {
  if (!(await changeState(user, ["banned"], "active"))) throw refused("unban", (await findUser(user.id))?.state ?? user.state);
  return true;
});
