/** Hosting routes (projects, groups, members, repositories). Part of the one route table, `functions/routes.ts`. */
import { routesIn, type RouteSpec } from "../route-spec.js";
import { snippetRoutes, wikiRoutes } from "./snippet-wiki-routes.js";

const r = routesIn("hosting/http");

export const hostingRoutes: RouteSpec[] = [
  r("GET", "/api/v4/projects", "list-projects"),
  r("POST", "/api/v4/projects", "create-project"),
  r("GET", "/api/v4/projects/:id", "get-project"),
  r("PUT", "/api/v4/projects/:id", "update-project"),
  r("DELETE", "/api/v4/projects/:id", "delete-project"),
  r("POST", "/api/v4/projects/:id/archive", "archive-project"),
  r("POST", "/api/v4/projects/:id/unarchive", "unarchive-project"),
  r("GET", "/api/v4/projects/:id/storage", "get-project-storage"),
  r("GET", "/api/v4/projects/:id/groups", "list-project-groups"),
  r("GET", "/api/v4/projects/:id/members", "list-project-members"),
  r("POST", "/api/v4/projects/:id/members", "add-project-member"),
  r("DELETE", "/api/v4/projects/:id/members/:user_id", "remove-project-member"),
  r("POST", "/api/v4/projects/:id/repository/commits", "create-commit"),
  r("GET", "/api/v4/projects/:id/repository/commits", "list-commits"),
  r("GET", "/api/v4/projects/:id/repository/tree", "list-tree"),
  r("GET", "/api/v4/projects/:id/repository/files/:file_path/raw", "raw-file"),
  r("GET", "/api/v4/projects/:id/repository/files/:file_path/blame", "get-file-blame"),
  r("HEAD", "/api/v4/projects/:id/repository/files/:file_path/blame", "get-file-blame"),
  r("GET", "/api/v4/projects/:id/repository/files/:file_path", "get-file"),
  r("HEAD", "/api/v4/projects/:id/repository/files/:file_path", "get-file"),
  r("POST", "/api/v4/projects/:id/repository/files/:file_path", "create-file"),
  r("PUT", "/api/v4/projects/:id/repository/files/:file_path", "update-file"),
  r("DELETE", "/api/v4/projects/:id/repository/files/:file_path", "delete-file"),
  r("GET", "/api/v4/groups", "list-groups"),
  r("POST", "/api/v4/groups", "create-group"),
  r("GET", "/api/v4/groups/:id", "get-group"),
  r("PUT", "/api/v4/groups/:id", "update-group"),
  r("DELETE", "/api/v4/groups/:id", "delete-group"),
  r("GET", "/api/v4/groups/:id/members", "list-group-members"),
  r("POST", "/api/v4/groups/:id/members", "add-group-member"),
  r("DELETE", "/api/v4/groups/:id/members/:user_id", "remove-group-member"),
  r("GET", "/api/v4/namespaces", "list-namespaces"),
  r("GET", "/api/v4/namespaces/:id", "get-namespace"),
  r("GET", "/api/v4/namespaces/:id/exists", "namespace-exists"),
  ...snippetRoutes,
  ...wikiRoutes,
];
