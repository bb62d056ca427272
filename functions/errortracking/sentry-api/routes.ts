/**
 * The tracker web API this service OFFERS (the Sentry API subset GitLab's `SentryClient` calls, B.9)
 * over its integrated error data, so one instance — or an existing GitLab — can use another as its
 * third-party tracker. Bearer = a personal access token (`read_api` reads, `api` writes).
 *
 * Slugs: organization = the project's namespace full path with `/` written `~` (`~` cannot occur in
 * a GitLab path, so the mapping is reversible); project = the project's path. Issue ids are the
 * integrated error ids (unique across projects: the project is part of the grouping hash).
 *
 * Clients call Sentry's paths with a trailing `/`; the route table lists them without it (API Gateway
 * rejects route keys ending in `/`) and both spellings are served. Errors use Sentry's `{"detail": …}`.
 */
import { routesIn, type RouteSpec } from "../../route-spec.js";

const r = routesIn("errortracking/sentry-api");

export const sentryApiRoutes: RouteSpec[] = [
  r("GET", "/api/0/projects", "list-projects"),
  r("GET", "/api/0/projects/:org/:proj/issues", "list-issues"),
  r("GET", "/api/0/issues/:issue_id", "get-issue"),
  r("PUT", "/api/0/issues/:issue_id", "update-issue"),
  r("GET", "/api/0/issues/:issue_id/events/latest", "latest-event"),
  r("GET", "/api/0/issues/:issue_id/events", "list-issue-events"),
  r("GET", "/api/0/issues/:issue_id/tags", "list-issue-tags"),
  r("GET", "/api/0/projects/:org/:proj/events/:event_id", "get-project-event"),
];
