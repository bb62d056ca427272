/**
 * HTTP as clients expect it, across every academic entry of the route table: HEAD on every GET
 * route (on the local server and in a Lambda built for the HEAD route alone, as API Gateway invokes
 * it), `API-Version` on every answer of a release — errors included — a JSON content type on empty
 * answers, one 413 that states the limit, and the headers of the HTML pages.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Context as LambdaContext } from "aws-lambda";
import { routes, type RouteSpec } from "../../functions/routes.js";
import { releaseDe } from "../../functions/academic/domain/doc/tipos.js";
import { LIMITE_CUERPO_BYTES } from "../../functions/academic/domain/errores.js";
import { rest_docentes } from "../../functions/academic/vendor/lib.js";
import { loadModule } from "../../local/server.js";
import type { Endpoint } from "../../functions/platform/http/endpoint.js";
import { lambda } from "../../functions/platform/http/lambda.js";
import { acad, acadAparte, basic, USUARIOS } from "./support.js";
import { contentSecurityPolicy } from "../../functions/platform/http/security-headers.js";
import { ESTILO_INDICE } from "../../functions/academic/domain/indice.js";

const academicas = routes.filter((r) => r.module.startsWith("academic/"));
const docente = String(730_000_000 + Math.floor(Math.random() * 1_000_000));
let aula = "";

/** A concrete path for a route-table path: ids of records that exist, a file the page serves. */
function concreta(r: RouteSpec): string {
  return r.path
    .replace(":id_aula", aula)
    .replace(":id_docente", docente)
    .replace(":archivo", "iniciar.js")
    .replace(/\*$/, "no-existe");
}

/** Headers that must agree between a GET and its HEAD (the per-request ones aside). */
function comparables(h: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  h.forEach((v, k) => {
    if (!["date", "x-request-id", "content-length", "connection", "keep-alive", "transfer-encoding"].includes(k)) out[k] = v;
  });
  return out;
}

beforeAll(async () => {
  const creada = await acad("POST", "/rest/v2/aulas-uni", { body: { nombre: "HEAD", estado: "A" } });
  aula = String(creada.headers.get("location")!.split("/").pop());
  await new rest_docentes().importar([{ docente: Number(docente), legajo: "L-730", apellido: "Head", nombre: "Uno", activo: true }]);
});

describe("HEAD on every GET route", () => {
  it("every academic GET route has a HEAD twin in the route table, on the same module", () => {
    const gets = academicas.filter((r) => r.method === "GET");
    expect(gets.length).toBeGreaterThan(10);
    for (const g of gets) expect(academicas).toContainEqual({ method: "HEAD", path: g.path, module: g.module });
  });

  for (const r of academicas.filter((x) => x.method === "GET")) {
    it(`HEAD ${r.path}: the GET's status and headers, no body`, async () => {
      const path = concreta(r);
      // A GET on each side: other test files add records meanwhile, which changes a list's totals
      // between two requests; the HEAD must match the GET before or the GET after it.
      const get = await acad("GET", path);
      const head = await acad("HEAD", path);
      const after = await acad("GET", path);
      expect(head.status).toBe(get.status);
      // Served, not routed away (the disabled inherited service answers its 500 on both).
      if (!r.path.endsWith("*")) expect(get.status === 200 || /\/comisiones$/.test(r.path)).toBe(true);
      expect(head.text).toBe("");
      const headHeaders = comparables(head.headers);
      const matching = [get, after].find((g) => JSON.stringify(comparables(g.headers)) === JSON.stringify(headHeaders)) ?? get;
      expect(headHeaders).toEqual(comparables(matching.headers));
    });
  }

  it("a Lambda built for a HEAD route key answers it (API Gateway invokes one route per function)", async () => {
    for (const r of academicas.filter((x) => x.method === "HEAD" && !x.path.endsWith("*"))) {
      const { endpoint } = await loadModule<{ endpoint: Endpoint }>(r.module);
      const path = concreta(r);
      const respuesta = (await lambda(endpoint)(
        {
          version: "2.0",
          routeKey: `HEAD ${r.path.replace(/:(\w+)/g, "{$1}")}`,
          rawPath: path,
          rawQueryString: "",
          headers: { host: "api.example.edu", authorization: basic(USUARIOS.admin.usuario, USUARIOS.admin.password), "x-forwarded-proto": "https" },
          requestContext: { http: { method: "HEAD", path, protocol: "HTTP/1.1", sourceIp: "127.0.0.1", userAgent: "test" }, requestId: `head-${Math.random()}`, routeKey: "", stage: "$default" },
          isBase64Encoded: false,
        } as never,
        {} as LambdaContext,
      )) as { statusCode: number; body?: string; headers: Record<string, string> };
      const get = await acad("GET", path);
      expect({ path, status: respuesta.statusCode, body: respuesta.body ?? "" }).toEqual({ path, status: get.status, body: "" });
      expect(respuesta.statusCode).not.toBe(404);
      expect(respuesta.headers["api-version"]).toBe(releaseDe(path));
    }
  });
});

describe("API-Version on every answer of a release, errors included", () => {
  for (const r of academicas) {
    it(`${r.method} ${r.path}`, async () => {
      const path = concreta(r);
      const release = releaseDe(path);
      // Anonymous: 401 (or the public files of Swagger UI). As an administrator: whatever it answers.
      for (const como of ["anonimo", "invitado", "admin"] as const) {
        const body = r.method === "POST" || r.method === "PUT" ? { nombre: 5 } : undefined;
        const res = await acad(r.method, path, { como, body });
        expect({ como, status: res.status, version: res.headers.get("api-version") }).toEqual({ como, status: res.status, version: release });
        const tipo = res.headers.get("content-type") ?? "";
        expect(tipo).not.toMatch(/text\/plain/);
      }
    });
  }

  it("on 404, 405 and 400 as well", async () => {
    for (const [metodo, path, status] of [
      ["GET", "/rest/v2/cursos", 404],
      ["GET", "/rest/cursos", 404],
      ["PATCH", "/rest/v2/aulas-uni", 405],
      ["GET", "/rest/aulas-uni?nombre=pepe", 400],
    ] as const) {
      const res = await acad(metodo, path);
      expect({ path, status: res.status, version: res.headers.get("api-version") }).toEqual({ path, status, version: releaseDe(path) });
    }
  });
});

describe("empty answers", () => {
  it("201 without a body (3.16 POST) and 204 (PUT, DELETE) say application/json, never text/plain", async () => {
    const creada = await acad("POST", "/rest/aulas-uni", { body: { nombre: "vacía" } });
    expect({ status: creada.status, text: creada.text, tipo: creada.headers.get("content-type") }).toEqual({ status: 201, text: "", tipo: "application/json" });
    const id = String(740_000_000 + Math.floor(Math.random() * 1_000_000));
    expect((await acad("PUT", `/rest/v2/docentes-uni/${id}`, { body: { apellido: "A", nombre: "B" } })).status).toBe(201);
    const modificado = await acad("PUT", `/rest/v2/docentes-uni/${id}`, { body: { apellido: "A", nombre: "C" } });
    expect({ status: modificado.status, text: modificado.text, tipo: modificado.headers.get("content-type") }).toEqual({ status: 204, text: "", tipo: "application/json" });
    const borrado = await acad("DELETE", `/rest/docentes-uni/${id}`);
    expect({ status: borrado.status, text: borrado.text, tipo: borrado.headers.get("content-type") }).toEqual({ status: 204, text: "", tipo: "application/json" });
  });
});

describe("request size", () => {
  it("every route refuses a body over the limit with one 413 that states it", async () => {
    const grande = JSON.stringify({ nombre: "x".repeat(LIMITE_CUERPO_BYTES) });
    const esperado = { error: 413, mensaje: "413 Request Entity Too Large", descripcion: `El cuerpo del pedido excede el tamaño máximo de ${LIMITE_CUERPO_BYTES} bytes (256 KiB)` };
    for (const [metodo, path] of [
      ["POST", "/rest/v2/aulas-uni"],
      ["POST", "/rest/aulas-uni"],
      ["PUT", `/rest/v2/docentes-uni/${docente}`],
      ["POST", "/rest/v2/no-existe"],
    ] as const) {
      const res = await acadAparte(metodo, path, grande);
      expect({ path, status: res.status, body: res.body, version: res.headers.get("api-version") }).toEqual({ path, status: 413, body: esperado, version: releaseDe(path) });
    }
    const justo = JSON.stringify({ nombre: "y".repeat(LIMITE_CUERPO_BYTES - 100) });
    expect((await acad("POST", "/rest/v2/aulas-uni", { raw: justo })).status).toBe(201);
  });
});

describe("HTML pages", () => {
  // The index allows its one inline stylesheet by hash; Swagger UI sets style attributes as it renders.
  const politica = (path: string) => (path.includes("swagger-ui") ? contentSecurityPolicy({ styleAttributes: true }) : contentSecurityPolicy({ inlineStyles: [ESTILO_INDICE] }));
  const seguridad = {
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin-when-cross-origin",
  };

  for (const path of ["/rest/v2/", "/rest", "/rest/v2/swagger-ui", "/rest/swagger-ui"]) {
    it(`${path} carries the security headers and no inline script`, async () => {
      const res = await acad("GET", path);
      expect(res.status).toBe(200);
      for (const [k, v] of Object.entries(seguridad)) expect(res.headers.get(k)).toBe(v);
      expect(res.headers.get("content-security-policy")).toBe(politica(path));
      expect(res.headers.get("content-security-policy")).toMatch(/script-src 'self';/);
      expect(res.text).not.toMatch(/<script>|<script [^>]*>[^<]|\son[a-z]+=/i);
    });
  }

  it("the index renders the notes' inline markup and escapes everything else", async () => {
    const res = await acad("GET", "/rest/v2/");
    expect(res.text).toContain("Cada aula incluye su identificador en el campo <code>aula</code>.");
    expect(res.text).toContain("<b>201</b> con <code>{&quot;resultado&quot;: &quot;…&quot;}</code>;<br>");
    expect(res.text).not.toMatch(/&lt;\/?(code|b|br)/);
  });
});
