/**
 * Swagger UI for each release: `/rest/v2/swagger-ui` renders `/rest/v2/api-docs` (and `/rest/…` the
 * 3.16 document). The page needs an authenticated caller, like the index; its files
 * (`/rest/v2/swagger-ui/<file>`) are the `swagger-ui-dist` package's, plus a start script of ours,
 * so the page runs under `script-src 'self'` with no inline script. On AWS the package ships in the
 * function's `node_modules` (`stacks/plan.ts`, `nodeModulesOf`).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Context } from "hono";
import { routePath } from "hono/route";
import "./errores.js";
import type { Endpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { rest_error } from "../domain/errores.js";
import { BASES, releaseDe, type Release } from "../domain/doc/tipos.js";
import { registro } from "../generated/registro.js";
import { autenticarPedido } from "./auth.js";
import { RECURSO_INEXISTENTE } from "./errores.js";
import { contentSecurityPolicy } from "../../platform/http/security-headers.js";
import type { RegistroGenerado } from "../runtime/registro.js";

/** Starts Swagger UI on the document next to the page (`…/swagger-ui` → `…/api-docs`). */
const INICIAR_JS = `window.addEventListener("load", function () {
  window.ui = SwaggerUIBundle({
    url: location.pathname.replace(/\\/swagger-ui\\/?$/, "/api-docs"),
    dom_id: "#swagger-ui",
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
    validatorUrl: null,
  });
});
`;

const JS = "text/javascript; charset=utf-8";
const DEL_PAQUETE: Record<string, string> = { "swagger-ui.css": "text/css; charset=utf-8", "swagger-ui-bundle.js": JS };

let carpeta: string | undefined;
const archivos = new Map<string, string>();

/** A file of the page, read once from the `swagger-ui-dist` package; undefined for any other name. */
function archivo(nombre: string): { cuerpo: string; tipo: string } | undefined {
  if (nombre === "iniciar.js") return { cuerpo: INICIAR_JS, tipo: JS };
  const tipo = Object.hasOwn(DEL_PAQUETE, nombre) ? DEL_PAQUETE[nombre]! : undefined;
  if (!tipo) return undefined;
  carpeta ??= dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
  let cuerpo = archivos.get(nombre);
  if (cuerpo === undefined) archivos.set(nombre, (cuerpo = readFileSync(join(carpeta, nombre), "utf8")));
  return { cuerpo, tipo };
}

export function paginaSwaggerUi(release: Release): string {
  const base = `${BASES[release]}/swagger-ui`;
  return `<!doctype html>
<html lang="es"><head><meta charset="utf-8"><title>Swagger UI — API REST académica ${release}</title>
<link rel="stylesheet" href="${base}/swagger-ui.css"></head>
<body><div id="swagger-ui"></div>
<script src="${base}/swagger-ui-bundle.js"></script>
<script src="${base}/iniciar.js"></script>
</body></html>`;
}

export function endpointDeSwaggerUi(registro: RegistroGenerado): Endpoint {
  return {
    spec: { summary: "Swagger UI de la API REST académica", access: "public" },
    async run(c: Context) {
      const release = releaseDe(routePath(c));
      const headers = { "API-Version": release };
      const nombre = c.req.param("archivo");
      if (nombre === undefined) {
        autenticarPedido(c, registro);
        // The platform adds the other page headers (framing, referrer, nosniff).
        return c.html(paginaSwaggerUi(release), 200, { ...headers, "Content-Security-Policy": contentSecurityPolicy({ styleAttributes: true }) });
      }
      // The library's own files are public, like any static asset; the document they load is not.
      const a = archivo(nombre);
      if (!a) throw new rest_error(404, RECURSO_INEXISTENTE);
      return c.body(a.cuerpo, 200, { ...headers, "Content-Type": a.tipo, "Cache-Control": "public, max-age=3600", "X-Content-Type-Options": "nosniff" });
    },
  };
}

export const endpoint = endpointDeSwaggerUi(registro);
export const handler = lambda(endpoint);
