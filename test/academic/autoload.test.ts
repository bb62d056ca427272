/**
 * The build step. Acceptance 1: a fixture institution's fresh resource folder becomes routable,
 * documented and permission-checked with no other file edited. Also: the committed generated files
 * are in sync, and malformed sources fail the build with file, line and what is wrong.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Hono } from "hono";
import { autoload, type ResultadoAutoload } from "../../functions/academic/build/autoload.js";
import { MODULOS } from "../../functions/academic/build/generar.js";
import { endpointDeDocumentacion, endpointDeRespaldo, endpointDeServicios } from "../../functions/academic/http/endpoints.js";
import type { RegistroGenerado } from "../../functions/academic/runtime/registro.js";
import { rest_docentes } from "../../functions/academic/vendor/lib.js";
import { createApp } from "../../functions/platform/http/app.js";
import { mountEndpoint } from "../../functions/platform/http/lambda.js";
import type { RouteSpec } from "../../functions/routes.js";
import { basic } from "./support.js";

const proyecto = resolve(import.meta.dirname, "../..");
const fixture = (nombre: string) => join(proyecto, "test/academic/fixtures", nombre, "rest");

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, ["--import", "tsx", "scripts/pers_autoload.ts", ...args], { cwd: proyecto, encoding: "utf8", env: { ...process.env, NODE_NO_WARNINGS: "1" } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("the committed generated files", () => {
  it("are what pers_autoload generates from rest/ (pers_autoload --check passes)", async () => {
    const r = await autoload({ proyecto });
    expect(r.errores).toEqual([]);
    for (const a of r.archivos) expect({ archivo: relative(proyecto, a.ruta), contenido: readFileSync(a.ruta, "utf8") }).toEqual({ archivo: relative(proyecto, a.ruta), contenido: a.contenido });
    expect(cli("--check")).toMatchObject({ status: 0 });
  });

  it("--check fails on a stale output folder", () => {
    const salida = mkdtempSync(join(proyecto, "test/academic/.generado-"));
    try {
      writeFileSync(join(salida, "routes.ts"), "// viejo\n");
      const r = cli("--root", fixture("institucion"), "--out", salida, "--check");
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(/routes\.ts is stale/);
    } finally {
      rmSync(salida, { recursive: true, force: true });
    }
  });
});

describe("a fixture institution's new resource folder (acceptance 1)", () => {
  let salida: string;
  let resultado: ResultadoAutoload;
  let rutas: RouteSpec[];
  let app: Hono;
  const bibliotecario = { Authorization: basic("bibliotecario_fix", "clave-fix") };
  const lector = { Authorization: basic("lector_fix", "clave-lector") };
  const pedir = async (method: string, path: string, headers: Record<string, string> = bibliotecario, body?: unknown) => {
    const res = await app.request(path, { method, headers: { ...headers, ...(body ? { "Content-Type": "application/json" } : {}) }, body: body ? JSON.stringify(body) : undefined });
    const text = await res.text();
    return { status: res.status, text, body: text && res.headers.get("content-type")?.includes("json") ? JSON.parse(text) : undefined };
  };

  beforeAll(async () => {
    salida = mkdtempSync(join(proyecto, "test/academic/.generado-"));
    resultado = await autoload({ proyecto, raiz: fixture("institucion"), salida });
    for (const a of resultado.archivos) writeFileSync(a.ruta, a.contenido);
    const { registro } = (await import(pathToFileURL(join(salida, "registro.ts")).href)) as { registro: RegistroGenerado };
    rutas = ((await import(pathToFileURL(join(salida, "routes.ts")).href)) as { academicRoutes: RouteSpec[] }).academicRoutes;
    const endpoints = { [MODULOS.servicio]: endpointDeServicios(registro), [MODULOS.documentacion]: endpointDeDocumentacion(registro), [MODULOS.respaldo]: endpointDeRespaldo(registro) };
    app = createApp();
    for (const r of rutas) mountEndpoint(app, r.method, r.path, endpoints[r.module as keyof typeof endpoints]!);
  });

  afterAll(() => rmSync(salida, { recursive: true, force: true }));

  it("builds without errors and warns about the service left without permissions", () => {
    expect(resultado.errores).toEqual([]);
    expect(resultado.avisos).toContain('DELETE /libros-fix/{id_libro} has no entry "libros-fix/id" → DELETE in recursos_usuarios: it is denied to everybody');
  });

  it("routes every service on /rest/v2/ and /rest/ to the generic service module", () => {
    const claves = rutas.map((r) => `${r.method} ${r.path} ${r.module}`);
    for (const base of ["/rest/v2", "/rest"]) {
      for (const r of ["POST /libros-fix", "GET /libros-fix", "GET /libros-fix/:id_libro", "DELETE /libros-fix/:id_libro", "GET /docentes-fix/:id_docente/legajos", "GET /docentes-fix/:id_docente"]) {
        const [m, p] = r.split(" ");
        expect(claves).toContain(`${m} ${base}${p} academic/http/service`);
      }
    }
  });

  it("serves the new resource with its validation, filters and permissions", async () => {
    const titulo = `Rayuela ${Date.now()}`;
    const creado = await pedir("POST", "/rest/v2/libros-fix", bibliotecario, { titulo, publicado: "1963-06-28" });
    expect(creado).toMatchObject({ status: 201, body: { libro: expect.any(Number) } });
    const invalido = await pedir("POST", "/rest/libros-fix", bibliotecario, { publicado: "1963-13-01" });
    expect(invalido).toMatchObject({ status: 400, body: { detalle: { titulo: ["El campo 'titulo' es obligatoio."], publicado: ["El campo 'publicado' debe ser una fecha. Se recibió '1963-13-01'."] } } });
    const lista = await pedir("GET", `/rest/v2/libros-fix?titulo=${encodeURIComponent(`es_igual_a;${titulo}`)}`, lector);
    expect(lista).toMatchObject({ status: 200, body: [{ titulo, publicado: "1963-06-28", libro: creado.body.libro }] });
    expect((await pedir("GET", `/rest/libros-fix/${creado.body.libro}`)).status).toBe(200);
    expect((await pedir("GET", `/rest/libros-fix/${creado.body.libro}`, lector)).status).toBe(403);
    const borrar = await pedir("DELETE", `/rest/v2/libros-fix/${creado.body.libro}`);
    expect(borrar).toMatchObject({ status: 403, body: { error: 403, mensaje: "403 Forbidden", descripcion: "Acceso denegado" } });
    expect((await pedir("GET", "/rest/v2/libros-fix", {})).status).toBe(401);
    expect((await pedir("GET", "/rest/v2/libros-fix", { Authorization: basic("admin_dev", "admin-dev-clave") })).status).toBe(401);
  });

  it("serves a service added to a derived resource, and denies its inherited ones without entries", async () => {
    const id = String(720_000_000 + Math.floor(Math.random() * 1_000_000));
    await new rest_docentes().importar([{ docente: Number(id), legajo: "L-720", apellido: "Fix", nombre: "Uno", activo: true }]);
    expect(await pedir("GET", `/rest/v2/docentes-fix/${id}/legajos`)).toMatchObject({ status: 200, body: [{ legajo: "L-720" }] });
    expect((await pedir("GET", `/rest/v2/docentes-fix/${id}`)).status).toBe(403);
  });

  it("documents the new resource in the index and the Swagger document", async () => {
    const doc = await pedir("GET", "/rest/v2/api-docs");
    expect(Object.keys(doc.body.paths)).toEqual(expect.arrayContaining(["/libros-fix", "/libros-fix/{id_libro}", "/docentes-fix/{id_docente}/legajos"]));
    expect(doc.body.definitions.Libro_fix).toEqual({ type: "object", required: ["titulo"], properties: { titulo: { type: "string" }, publicado: { type: "string", format: "date" } } });
    expect(doc.body.paths["/libros-fix/{id_libro}"].get.operationId).toBe("test/academic/fixtures/institucion/rest/v2/libros_fix/recurso_libros_fix:get");
    const indice = await pedir("GET", "/rest/");
    expect(indice.text).toContain("/rest/libros-fix/{id_libro}");
    expect(indice.text).toContain("Libros de la biblioteca (recurso de prueba)");
  });
});

describe("malformed sources fail the build with file, line and what is wrong", () => {
  const lineaDe = (archivo: string, texto: string) => readFileSync(archivo, "utf8").split("\n").findIndex((l) => l.includes(texto)) + 1;

  it("reports every problem of the customization folder", async () => {
    const raiz = fixture("malformado");
    const r = await autoload({ proyecto, raiz, salida: join(raiz, "no-se-escribe") });
    expect(r.archivos).toEqual([]);
    const mal = join(raiz, "v2/mal_doc/recurso_mal_doc.ts");
    const errores = r.errores.map((e) => `${relative(raiz, e.archivo)}:${e.linea}: ${e.mensaje}`);
    expect(errores).toEqual(
      expect.arrayContaining([
        "v2/sin_recurso:1: resource folder has no recurso_sin_recurso.ts",
        "servidor_usuarios.ts:1: users file is missing (export const servidor_usuarios: UsuarioApi[] = [...])",
        `v2/hijo_mal/recurso_hijo_mal.ts:${lineaDe(join(raiz, "v2/hijo_mal/recurso_hijo_mal.ts"), "export class")}: recurso_hijo_mal extends Base, which is not a resource (recurso_<name> in a resource folder)`,
        "v2/sin_modelos/recurso_sin_modelos.ts:2: a new resource must implement modelable and have a static _get_modelos() returning its models",
        `v2/mal_doc/recurso_mal_doc.ts:${lineaDe(mal, "rest_inexistente")}: fabrica.rest("rest_inexistente"): no data layer named rest_inexistente (expected v2/modelos/rest_inexistente.ts)`,
        `v2/mal_doc/recurso_mal_doc.ts:${lineaDe(mal, "@sumary")}: unknown tag @sumary (known: @summary, @notes, @param_query, @param_body, @responses)`,
        `v2/mal_doc/recurso_mal_doc.ts:${lineaDe(mal, "async post_list")}: service handler post_list has no doc comment (its first line must be "POST /mal-doc")`,
        `v2/mal_doc/recurso_mal_doc.ts:${lineaDe(mal, "GET /otra-cosa") - 1}: the first line "GET /otra-cosa/{id}" does not match handler get, which serves "GET /mal-doc/{<id_name>}"`,
        `v2/mal_doc/recurso_mal_doc.ts:${lineaDe(mal, "PUT /mal-doc") - 1}: the first line "PUT /mal-doc" does not match handler put, which serves "PUT /mal-doc/{<id_name>}"`,
        `v2/mal_doc/recurso_mal_doc.ts:${lineaDe(mal, "async delete()")}: handler delete takes 0 parameter(s) but its route /mal-doc/{id} has 1 path value(s)`,
        `v2/mal_doc/recurso_mal_doc.ts:${lineaDe(mal, "async get_cosa")}: public method get_cosa looks like a service handler, but handlers are named <verb>_list, <verb>, or <verb>_<sub>_list (verb: get, post, put, delete); make it protected or rename it`,
      ]),
    );
    expect(errores).toHaveLength(11);
  });

  it("reports unknown models and malformed permissions and users files", async () => {
    const raiz = fixture("modelos_malos");
    const r = await autoload({ proyecto, raiz, salida: join(raiz, "no-se-escribe") });
    const archivo = join(raiz, "v2/fantasmas_fix/recurso_fantasmas_fix.ts");
    expect(r.errores).toEqual([
      { archivo, linea: lineaDe(archivo, "static _get_modelos"), mensaje: "model Casa_fix refers to unknown model Persona_fix" },
      { archivo, linea: lineaDe(archivo, "GET /fantasmas-fix") - 1, mensaje: "GET /fantasmas-fix: unknown model Fantasma_fix (known: Casa_fix, Comision, Docente)" },
      { archivo, linea: lineaDe(archivo, "POST /fantasmas-fix") - 1, mensaje: "POST /fantasmas-fix: unknown model Espectro_fix (known: Casa_fix, Comision, Docente)" },
      { archivo: join(raiz, "recursos_usuarios.ts"), linea: 1, mensaje: expect.stringMatching(/Fantasmas\/ID: invalid key: expected a path pattern.*fantasmas-fix: Unrecognized key: "PATCH"/) },
      { archivo: join(raiz, "servidor_usuarios.ts"), linea: 1, mensaje: expect.stringMatching(/0\.password: a hash .* never the secret itself/) },
    ]);
  });

  it("the CLI prints file:line: problem and exits 1", () => {
    const r = cli("--root", fixture("malformado"), "--out", join(fixture("malformado"), "no-se-escribe"));
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/test\/academic\/fixtures\/malformado\/rest\/v2\/mal_doc\/recurso_mal_doc\.ts:\d+: unknown tag @sumary/);
    expect(r.stderr).toMatch(/pers_autoload: 11 error\(s\); nothing generated/);
  });
});
