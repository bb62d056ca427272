/** Markdown rendering (GitLab's Markdown API). Part of the one route table, `functions/routes.ts`. */
import type { RouteSpec } from "../route-spec.js";

export const markdownRoutes: RouteSpec[] = [{ method: "POST", path: "/api/v4/markdown", module: "markdown/http/render-markdown" }];
