/**
 * OpenAPI 3.1 document of `/api/v4`, generated from the route table and each endpoint's zod schemas
 * (zod 4's own JSON Schema output), so the document cannot drift from what the handlers validate.
 */
import * as z from "zod/mini";
import { routes } from "../../routes.js";
import type { Endpoint } from "./endpoint.js";


function schemaOf(s: z.core.$ZodType | undefined, io: "input" | "output" = "input") {
  if (!s) return undefined;
  try {
    return z.toJSONSchema(s, { io, unrepresentable: "any" }) as Record<string, unknown>;
  } catch {
    return { type: "object" };
  }
}

export async function buildOpenApi(load: (module: string) => Promise<{ endpoint?: Endpoint }>) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes.filter((r) => r.path.startsWith("/api/v4"))) {
    const mod = await load(route.module);
    const spec = mod.endpoint?.spec;
    if (!spec) continue;
    const path = route.path.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
    const params = schemaOf(spec.params) as { properties?: Record<string, unknown> } | undefined;
    const query = schemaOf(spec.query) as { properties?: Record<string, unknown>; required?: string[] } | undefined;
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = {
      summary: spec.summary,
      operationId: route.module.replace(/\//g, "."),
      security: spec.access === "public" ? [] : [{ privateToken: [] }, { bearer: [] }],
      ...(spec.admin ? { description: "Administrators only." } : {}),
      parameters: [
        ...Object.entries(params?.properties ?? {}).map(([name, schema]) => ({ name, in: "path", required: true, schema })),
        ...Object.entries(query?.properties ?? {}).map(([name, schema]) => ({ name, in: "query", required: query?.required?.includes(name) ?? false, schema })),
      ],
      ...(spec.body ? { requestBody: { required: true, content: { "application/json": { schema: schemaOf(spec.body) } } } } : {}),
      responses: {
        [String(spec.status ?? 200)]: { description: "Success" },
        "400": { description: "Invalid parameters (`{\"error\":\"… is missing\"}`)" },
        "401": { description: "`{\"message\":\"401 Unauthorized\"}`" },
        "403": { description: "`{\"message\":\"403 Forbidden\"}`" },
        "404": { description: "Not found, or not visible to the caller" },
      },
    };
  }
  return {
    openapi: "3.1.0",
    info: { title: "Forgeline API (GitLab-compatible /api/v4)", version: "v4" },
    components: {
      securitySchemes: {
        privateToken: { type: "apiKey", in: "header", name: "Private-Token" },
        bearer: { type: "http", scheme: "bearer" },
      },
    },
    paths,
  };
}
