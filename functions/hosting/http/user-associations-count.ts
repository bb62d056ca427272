import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { forbidden, notFound } from "../../platform/http/errors.js";
import { queryAll, GSI1 } from "../../platform/db/table.js";
import { findUser } from "../../identity/domain/users.js";
import { userParams } from "../../identity/http/user-schemas.js";
import { activeLevel, type MemberRecord } from "../domain/access.js";
import { membershipsOfUserIndex } from "../domain/keys.js";

const memberships = async (userId: number, kind: "project" | "group") =>
  (await queryAll<MemberRecord>({ index: GSI1, pk: membershipsOfUserIndex(kind, userId, 0).gsi1pk })).filter((m) => activeLevel(m) > 0).length;

/**
 * GitLab's `GET /users/:id/associations_count`: the user's direct group and project memberships
 * (GitLab's `user.groups` and `user.projects`), and no issues or merge requests (there are none
 * here). The user itself or an administrator; anyone else 403, before a missing user's 404.
 */
export const endpoint = defineEndpoint({ summary: "Count a user's projects, groups, issues and merge requests", access: "read_user", params: userParams }, async ({ principal, params }) => {
  if (!principal.user.admin && principal.user.id !== params.user_id) throw forbidden();
  const user = await findUser(params.user_id);
  if (!user) throw notFound("User");
  const [groups, projects] = await Promise.all([memberships(user.id, "group"), memberships(user.id, "project")]);
  return { groups_count: groups, projects_count: projects, issues_count: 0, merge_requests_count: 0 };
});
export const handler = lambda(endpoint);
