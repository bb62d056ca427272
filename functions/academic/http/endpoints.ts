/**
 * The three generic endpoints behind every academic route, each built for a registry (the generated
 * one in production; a fixture's in tests):
 * - services: finds the service by the matched route pattern and method, and runs it;
 * - documentation: the HTML index at `/rest/v2` and the Swagger 2.0 document at `/rest/v2/api-docs`;
 * - fallback (`/rest/*`): the index at `/rest/v2/`, 405 for a known path with another method, and a
 *   404 envelope — without internal details — for anything else.
 * Every one of them requires an authenticated caller, like the original's firewall.
 */
import type { Context } from "hono";
import { routePath } from "hono/route";
import type { Endpoint } from "../../platform/http/endpoint.js";
import { rest_error } from "../domain/errores.js";
import { BASES, releaseDe, type Release } from "../domain/doc/tipos.js";
import { documentoSwagger } from "../domain/swagger.js";
import { ESTILO_INDICE, indiceHtml } from "../domain/indice.js";
import { contentSecurityPolicy } from "../../platform/http/security-headers.js";
import { modelosDe, servicioDe, type RegistroGenerado } from "../runtime/registro.js";
import { autenticarPedido } from "./auth.js";
import { ejecutarServicio } from "./ejecutar.js";
import { RECURSO_INEXISTENTE } from "./errores.js";

const spec = (summary: string) => ({ summary, access: "public" as const });

/** `/rest/v2/aulas-uni/:id_aula` → `{ release: "3.22", ruta: "/aulas-uni/{id_aula}" }`. */
function rutaRelativa(patron: string): { release: Release; ruta: string } {
  const release = releaseDe(patron);
  return { release, ruta: patron.slice(BASES[release].length).replace(/:(\w+)/g, "{$1}") };
}

export function endpointDeServicios(registro: RegistroGenerado): Endpoint {
  return {
    spec: spec("Servicio de un recurso REST académico (despacha por ruta y método)"),
    async run(c) {
      const { release, ruta } = rutaRelativa(routePath(c));
      // HEAD runs the GET service; the runtime sends its status and headers without the body.
      const encontrado = servicioDe(registro, c.req.method === "HEAD" ? "GET" : c.req.method, ruta);
      if (!encontrado) throw new rest_error(404, RECURSO_INEXISTENTE);
      return ejecutarServicio(c, registro, encontrado.recurso, encontrado.servicio, release);
    },
  };
}

function documentacion(c: Context, registro: RegistroGenerado, release: Release, quiere: "indice" | "swagger"): Response {
  autenticarPedido(c, registro);
  const headers = { "API-Version": release };
  if (quiere === "indice") {
    // The platform's page policy, with the index's one inline stylesheet allowed by its hash.
    const csp = { "Content-Security-Policy": contentSecurityPolicy({ inlineStyles: [ESTILO_INDICE] }) };
    return c.html(indiceHtml(registro.recursos, release), 200, { ...headers, ...csp });
  }
  const esquema = (c.req.header("x-forwarded-proto") ?? new URL(c.req.url).protocol.replace(":", "")) === "http" ? "http" : "https";
  return c.json(documentoSwagger(registro.recursos, modelosDe(registro), release, esquema), 200, headers);
}

export function endpointDeDocumentacion(registro: RegistroGenerado): Endpoint {
  return {
    spec: spec("Índice HTML y documento Swagger 2.0 de la API REST académica"),
    async run(c) {
      const patron = routePath(c);
      const release = releaseDe(patron);
      return documentacion(c, registro, release, patron.endsWith("/api-docs") ? "swagger" : "indice");
    },
  };
}

/** The documented routes of the registry as regular expressions over a relative path. */
function coincidentes(registro: RegistroGenerado, ruta: string): string[] {
  const metodos = new Set<string>();
  for (const recurso of registro.recursos) {
    for (const s of recurso.servicios) {
      const re = new RegExp(`^${s.ruta.replace(/\{\w+\}/g, "[^/]+")}$`);
      if (re.test(ruta)) metodos.add(s.metodo);
    }
  }
  return [...metodos];
}

export function endpointDeRespaldo(registro: RegistroGenerado): Endpoint {
  return {
    spec: spec("Rutas inexistentes de la API REST académica"),
    async run(c) {
      const path = c.req.path;
      const release = releaseDe(path);
      if (path === `${BASES[release]}/`) return documentacion(c, registro, release, "indice");
      autenticarPedido(c, registro);
      const permitidos = coincidentes(registro, path.slice(BASES[release].length));
      if (permitidos.length > 0) {
        throw new rest_error(405, `El método ${c.req.method} no está disponible para ${path}; use ${permitidos.join(", ")}`, undefined, { Allow: permitidos.join(", ") });
      }
      throw new rest_error(404, RECURSO_INEXISTENTE);
    },
  };
}
