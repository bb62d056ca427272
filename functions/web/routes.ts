/** Web pages and browser sessions. Part of the one route table, `functions/routes.ts`. */
import { projectScopedPaths, routesIn, type RouteSpec } from "../route-spec.js";

const r = routesIn("web/http");
const admin = routesIn("web/admin/http");
const project = (method: RouteSpec["method"], suffix: string, module: string) => projectScopedPaths(suffix).map((path) => r(method, path, module));

export const webRoutes: RouteSpec[] = [
  r("GET", "/", "home"),
  r("GET", "/users/sign_in", "sign-in-page"),
  r("POST", "/users/sign_in", "sign-in"),
  r("POST", "/users/sign_out", "sign-out"),
  // Stylesheet and page scripts, embedded in the bundle (no CDN, no files on Lambda).
  r("GET", "/-/assets/:name", "assets"),
  r("GET", "/favicon.ico", "favicon"),
  ...project("GET", "error_tracking", "error-list-page"),
  // HTML detail; `…/:issue_id/details.json` (errortracking) differs by its last literal segment.
  ...project("GET", "error_tracking/:issue_id/details", "error-detail-page"),
  // HTML; its JSON (errortracking) is `…/events/:event_id/details.json`, one segment longer.
  ...project("GET", "error_tracking/:issue_id/events/:event_id", "error-event-page"),
  ...project("GET", "error_tracking/projects.json", "projects-json"),
  ...project("GET", "settings/monitor", "settings-page"),
  ...project("PATCH", "settings/operations", "save-settings"),
  // The operator console (administrators): storages and storage moves. Their JSON is the moves
  // context's (`/admin/…json`, functions/moves/routes.ts); their scripts have a function of their own.
  admin("GET", "/admin/storages", "storages-page"),
  admin("GET", "/admin/storage_moves", "moves-page"),
  admin("GET", "/admin/storage_moves/plan", "plan-page"),
  admin("GET", "/admin/storage_moves/:type/:id", "move-page"),
  admin("GET", "/-/assets/admin/:name", "assets"),
];
