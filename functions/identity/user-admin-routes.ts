/**
 * User administration routes (GitLab's admin side of `/users/:id`) and the avatars they upload. Part
 * of the one route table, `functions/routes.ts`. Deleting a user and the user's projects and
 * memberships read hosting data, so those modules live in hosting.
 */
import { routesIn, type RouteSpec } from "../route-spec.js";

const r = routesIn("");

export const userAdminRoutes: RouteSpec[] = [
  r("PUT", "/api/v4/users/:user_id", "identity/http/update-user"),
  r("DELETE", "/api/v4/users/:user_id", "hosting/http/delete-user"),
  r("POST", "/api/v4/users/:user_id/block", "identity/http/block-user"),
  r("POST", "/api/v4/users/:user_id/unblock", "identity/http/unblock-user"),
  r("POST", "/api/v4/users/:user_id/ban", "identity/http/ban-user"),
  r("POST", "/api/v4/users/:user_id/unban", "identity/http/unban-user"),
  r("POST", "/api/v4/users/:user_id/deactivate", "identity/http/deactivate-user"),
  r("POST", "/api/v4/users/:user_id/activate", "identity/http/activate-user"),
  r("POST", "/api/v4/users/:user_id/approve", "identity/http/approve-user"),
  r("POST", "/api/v4/users/:user_id/reject", "identity/http/reject-user"),
  r("PATCH", "/api/v4/users/:user_id/disable_two_factor", "identity/http/disable-two-factor"),
  r("GET", "/api/v4/users/:user_id/projects", "hosting/http/list-user-projects"),
  r("GET", "/api/v4/users/:user_id/contributed_projects", "hosting/http/list-contributed-projects"),
  r("GET", "/api/v4/users/:user_id/memberships", "hosting/http/list-user-memberships"),
  r("GET", "/api/v4/users/:user_id/associations_count", "hosting/http/user-associations-count"),
  r("GET", "/api/v4/users/:user_id/status", "identity/http/get-user-status"),
  r("GET", "/api/v4/users/:user_id/impersonation_tokens", "identity/http/list-impersonation-tokens"),
  r("POST", "/api/v4/users/:user_id/impersonation_tokens", "identity/http/create-impersonation-token"),
  r("GET", "/api/v4/users/:user_id/impersonation_tokens/:impersonation_token_id", "identity/http/get-impersonation-token"),
  r("DELETE", "/api/v4/users/:user_id/impersonation_tokens/:impersonation_token_id", "identity/http/revoke-impersonation-token"),
  r("GET", "/uploads/-/system/user/avatar/:user_id/:filename", "identity/http/get-avatar"),
];
