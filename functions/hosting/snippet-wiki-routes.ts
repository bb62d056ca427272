/** Personal and project snippets, and group and project wikis. Part of the one route table, `functions/routes.ts`. */
import { routesIn, type RouteSpec } from "../route-spec.js";

const r = routesIn("hosting/http");

export const snippetRoutes: RouteSpec[] = [
  r("GET", "/api/v4/snippets", "list-snippets"),
  r("POST", "/api/v4/snippets", "create-snippet"),
  // Literal segments before `/snippets/:id`: the local server takes the first route that matches
  // (API Gateway prefers a literal segment by itself).
  r("GET", "/api/v4/snippets/public", "list-public-snippets"),
  r("GET", "/api/v4/snippets/all", "list-all-snippets"),
  r("GET", "/api/v4/snippets/:id", "get-snippet"),
  r("PUT", "/api/v4/snippets/:id", "update-snippet"),
  r("DELETE", "/api/v4/snippets/:id", "delete-snippet"),
  r("GET", "/api/v4/snippets/:id/raw", "snippet-raw"),
  r("GET", "/api/v4/snippets/:id/files/:ref/:file_path/raw", "snippet-file-raw"),
  r("GET", "/api/v4/snippets/:id/user_agent_detail", "snippet-user-agent-detail"),
];

/** Project snippets: repositories of their own like personal ones, reached through their project. */
export const projectSnippetRoutes: RouteSpec[] = [
  r("GET", "/api/v4/projects/:id/snippets", "list-project-snippets"),
  r("POST", "/api/v4/projects/:id/snippets", "create-project-snippet"),
  r("GET", "/api/v4/projects/:id/snippets/:snippet_id", "get-project-snippet"),
  r("PUT", "/api/v4/projects/:id/snippets/:snippet_id", "update-project-snippet"),
  r("DELETE", "/api/v4/projects/:id/snippets/:snippet_id", "delete-project-snippet"),
  r("GET", "/api/v4/projects/:id/snippets/:snippet_id/raw", "project-snippet-raw"),
  r("GET", "/api/v4/projects/:id/snippets/:snippet_id/files/:ref/:file_path/raw", "project-snippet-file-raw"),
  r("GET", "/api/v4/projects/:id/snippets/:snippet_id/user_agent_detail", "project-snippet-user-agent-detail"),
];

export const wikiRoutes: RouteSpec[] = [
  r("GET", "/api/v4/groups/:id/wikis", "list-wiki-pages"),
  r("POST", "/api/v4/groups/:id/wikis", "create-wiki-page"),
  r("POST", "/api/v4/groups/:id/wikis/attachments", "upload-group-wiki-attachment"),
  r("GET", "/api/v4/groups/:id/wikis/:slug", "get-wiki-page"),
  r("PUT", "/api/v4/groups/:id/wikis/:slug", "update-wiki-page"),
  r("DELETE", "/api/v4/groups/:id/wikis/:slug", "delete-wiki-page"),
];

/** The same wiki API over a project's wiki repository (`<project repository>.wiki.git`). */
export const projectWikiRoutes: RouteSpec[] = [
  r("GET", "/api/v4/projects/:id/wikis", "list-project-wiki-pages"),
  r("POST", "/api/v4/projects/:id/wikis", "create-project-wiki-page"),
  r("POST", "/api/v4/projects/:id/wikis/attachments", "upload-project-wiki-attachment"),
  r("GET", "/api/v4/projects/:id/wikis/:slug", "get-project-wiki-page"),
  r("PUT", "/api/v4/projects/:id/wikis/:slug", "update-project-wiki-page"),
  r("DELETE", "/api/v4/projects/:id/wikis/:slug", "delete-project-wiki-page"),
];
