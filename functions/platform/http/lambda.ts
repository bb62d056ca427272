/**
 * Lambda adapter: each route is its own function behind API Gateway (HTTP API, payload v2). The
 * function learns its own method and path from the event's `routeKey` (`GET /api/v4/projects/{id}`),
 * so the route table stays the only place that pairs a path with a module.
 */
import type { Hono } from "hono";
import { handle } from "hono/aws-lambda";
import type { Context as LambdaContext } from "aws-lambda";
import { createApp } from "./app.js";
import type { Endpoint } from "./endpoint.js";

/** `{id}` → `:id`, `{proxy+}` → `*`: API Gateway path syntax to Hono's. */
export function toHonoPath(apiGatewayPath: string): string {
  return apiGatewayPath.replace(/\{([^}+]+)\+\}/g, "*").replace(/\{([^}]+)\}/g, ":$1");
}

/** `:id` → `{id}`: Hono path syntax (used by the route table) to API Gateway's. */
export function toApiGatewayPath(honoPath: string): string {
  return honoPath.replace(/:([A-Za-z0-9_]+)/g, "{$1}").replace(/\*$/, "{proxy+}");
}

/**
 * Registers a route under both spellings, `/x` and `/x/`: API Gateway sends `/x/` to the `/x` route
 * (and rejects route keys ending in `/`), Sentry clients call `/api/0/…/` with the slash, and Hono
 * matches strictly. A `HEAD` entry exists for API Gateway, which routes HEAD only to HEAD routes.
 */
export function mountEndpoint(app: Hono, method: string, path: string, endpoint: Endpoint): void {
  // Hono answers HEAD with its GET route (without the body), so a HEAD entry mounts as GET.
  const as = method === "HEAD" ? "GET" : method;
  app.on(as, path, (c) => endpoint.run(c));
  if (path !== "/" && !path.endsWith("*")) app.on(as, `${path}/`, (c) => endpoint.run(c));
}

export function lambda(endpoint: Endpoint) {
  const apps = new Map<string, ReturnType<typeof handle>>();
  type LambdaEvent = Parameters<ReturnType<typeof handle>>[0];
  return (event: LambdaEvent, context: LambdaContext) => {
    const routeKey = ("routeKey" in event ? event.routeKey : undefined) ?? "$default";
    let handler = apps.get(routeKey);
    if (!handler) {
      const app = createApp();
      if (routeKey === "$default") app.all("*", (c) => endpoint.run(c));
      else {
        const [method = "GET", path = "/"] = routeKey.split(" ");
        mountEndpoint(app, method, toHonoPath(path), endpoint);
      }
      handler = handle(app);
      apps.set(routeKey, handler);
    }
    return handler(event, context);
  };
}
