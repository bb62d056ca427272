/** Web pages and browser sessions. Part of the one route table, `functions/routes.ts`. */
import type { RouteSpec } from "../routes.js";

const r = (method: RouteSpec["method"], path: string, module: string): RouteSpec => ({ method, path, module: `web/http/${module}` });

export const webRoutes: RouteSpec[] = [
  r("GET", "/", "home"),
  r("GET", "/users/sign_in", "sign-in-page"),
  r("POST", "/users/sign_in", "sign-in"),
  r("POST", "/users/sign_out", "sign-out"),
];
