/**
 * `docs/academic-rest.md`'s walk-through, followed verbatim: its code blocks are written into a copy of
 * the customisation folder (the permissions block spliced into `recursos_usuarios.ts`, as step 3
 * says), type-checked, generated as `pers_autoload` does, served on a loopback port as `npm start`
 * serves the route table, and called with the guide's own curl lines (HTTP Basic).
 */
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import SwaggerParser from "@apidevtools/swagger-parser";
import { serve, type ServerType } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { autoload } from "../../functions/academic/build/autoload.js";
import { MODULOS } from "../../functions/academic/build/generar.js";
import { endpointDeDocumentacion, endpointDeRespaldo, endpointDeServicios } from "../../functions/academic/http/endpoints.js";
import { endpointDeSwaggerUi } from "../../functions/academic/http/swagger-ui.js";
import type { RegistroGenerado } from "../../functions/academic/runtime/registro.js";
import { createApp } from "../../functions/platform/http/app.js";
import { mountEndpoint } from "../../functions/platform/http/lambda.js";
import type { RouteSpec } from "../../functions/routes.js";

const proyecto = resolve(import.meta.dirname, "../..");
/** The institution developer's guide (rest/README.md points to it). */
const GUIA = "docs/academic-rest.md";
const ejecutar = promisify(execFile);

/** The walk-through's code blocks, in order. */
function bloques(): { lenguaje: string; codigo: string }[] {
  const guia = readFileSync(join(proyecto, GUIA), "utf8");
  const seccion = guia.slice(guia.indexOf("## Walk-through"), guia.indexOf("## Reference"));
  return [...seccion.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => ({ lenguaje: m[1]!, codigo: m[2]! }));
}

let carpeta: string;
let servidor: ServerType;
let rest: string;

beforeAll(async () => {
  carpeta = mkdtempSync(join(proyecto, "test/academic/.guia-"));
  cpSync(join(proyecto, "rest"), join(carpeta, "rest"), { recursive: true });
  // The copy sits where rest/ sits relative to functions/, so the guide's imports resolve unchanged.
  symlinkSync(join(proyecto, "functions"), join(carpeta, "functions"));

  for (const { lenguaje, codigo } of bloques().filter((b) => b.lenguaje === "ts")) {
    const destino = /^\/\/ (rest\/\S+\.ts)/.exec(codigo)?.[1];
    if (!destino) throw new Error(`a ts block of the walk-through does not start with its file: ${codigo.slice(0, 60)} (${lenguaje})`);
    const archivo = join(carpeta, destino);
    if (destino === "rest/recursos_usuarios.ts") {
      const entradas = codigo.slice(codigo.indexOf("\n") + 1);
      const actual = readFileSync(archivo, "utf8");
      writeFileSync(archivo, actual.replace(/\n};\s*$/, `\n${entradas}};\n`));
    } else {
      mkdirSync(dirname(archivo), { recursive: true });
      writeFileSync(archivo, codigo);
    }
  }
});

afterAll(() => {
  servidor?.close();
  if (carpeta) rmSync(carpeta, { recursive: true, force: true });
});

describe("docs/academic-rest.md walk-through, verbatim", () => {
  // tsc over the copy and everything it imports: more than the default minute on a busy machine.
  it("its files type-check with the project's settings", { timeout: 600_000 }, () => {
    writeFileSync(join(carpeta, "tsconfig.json"), JSON.stringify({ extends: "../../../tsconfig.json", include: ["rest"] }));
    const tsc = join(proyecto, "node_modules/.bin/tsc");
    expect(() => execFileSync(tsc, ["--noEmit", "-p", join(carpeta, "tsconfig.json")], { encoding: "utf8", stdio: "pipe" })).not.toThrow();
  });

  it("step 4: pers_autoload accepts the folder and the route table serves it", async () => {
    const comandos = bloques().filter((b) => b.lenguaje === "bash")[0]!.codigo.trim().split("\n");
    expect(comandos).toEqual(["npx tsx scripts/pers_autoload.ts", "npm start"]);
    // What the first command does, on the copy; what the second serves: the generated route table.
    const salida = join(carpeta, "generado");
    const r = await autoload({ proyecto: carpeta, raiz: join(carpeta, "rest"), salida });
    expect(r.errores).toEqual([]);
    expect(r.avisos).toEqual([]);
    mkdirSync(salida, { recursive: true });
    for (const a of r.archivos) writeFileSync(a.ruta, a.contenido);
    const { registro } = (await import(pathToFileURL(join(salida, "registro.ts")).href)) as { registro: RegistroGenerado };
    const { academicRoutes } = (await import(pathToFileURL(join(salida, "routes.ts")).href)) as { academicRoutes: RouteSpec[] };
    const endpoints = {
      [MODULOS.servicio]: endpointDeServicios(registro),
      [MODULOS.documentacion]: endpointDeDocumentacion(registro),
      [MODULOS.respaldo]: endpointDeRespaldo(registro),
      [MODULOS.swaggerUi]: endpointDeSwaggerUi(registro),
    };
    const app = createApp();
    for (const ruta of academicRoutes) mountEndpoint(app, ruta.method, ruta.path, endpoints[ruta.module as keyof typeof endpoints]!);
    await new Promise<void>((listo) => {
      servidor = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, () => listo());
    });
    rest = `http://127.0.0.1:${(servidor.address() as AddressInfo).port}/rest`;
    expect(academicRoutes.map((x) => `${x.method} ${x.path}`)).toEqual(
      expect.arrayContaining(["POST /rest/v2/libros-uni", "HEAD /rest/libros-uni/:id_libro", "POST /rest/v2/libros-uni/:id_libro/prestamos", "GET /rest/libros-uni/:id_libro/prestamos"]),
    );
  });

  it("step 5: the guide's curl lines, with HTTP Basic, answer what the guide says", async () => {
    const lineas = bloques().filter((b) => b.lenguaje === "bash")[1]!.codigo.trim().split("\n");
    expect(lineas[0]).toBe("export REST=http://127.0.0.1:3000/rest");
    // Asynchronously: the server answering these calls runs in this process.
    const salidas: string[] = [];
    for (const linea of lineas.slice(1)) salidas.push((await ejecutar("bash", ["-c", linea], { encoding: "utf8", env: { ...process.env, REST: rest } })).stdout);
    expect(salidas).toHaveLength(7);
    const [creado, invalido, lista, prestamo, prestamos, denegado, rutas] = salidas as [string, string, string, string, string, string, string];
    expect(JSON.parse(creado)).toEqual({ libro: 1, titulo: "Rayuela", publicado: "1963-06-28", ejemplares: 3 });
    expect(JSON.parse(invalido)).toMatchObject({
      error: 400,
      descripcion: "Error en la validación del recurso",
      detalle: { titulo: ["El campo 'titulo' es obligatoio."], publicado: ["El campo 'publicado' debe ser una fecha. Se recibió '1963-13-01'."] },
    });
    expect(JSON.parse(lista)).toEqual([{ libro: 1, titulo: "Rayuela", publicado: "1963-06-28", ejemplares: 3 }]);
    expect(JSON.parse(prestamo)).toEqual({ lector: "Ana", desde: "2024-03-01" });
    expect(JSON.parse(prestamos)).toEqual([{ lector: "Ana", desde: "2024-03-01" }]);
    expect(JSON.parse(denegado)).toEqual({ error: 403, mensaje: "403 Forbidden", descripcion: "Acceso denegado" });
    expect(rutas.trim().split("\n")).toEqual(['"/libros-uni"', '"/libros-uni/{id_libro}"', '"/libros-uni/{id_libro}/prestamos"']);
  });

  it("the new resource's Swagger document validates, with its date field as Swagger 2.0 writes it", async () => {
    const res = await fetch(`${rest}/api-docs`, { headers: { Authorization: `Basic ${Buffer.from("admin_dev:admin-dev-clave").toString("base64")}` } });
    const doc = (await res.json()) as { definitions: Record<string, { properties: Record<string, unknown> }> };
    expect(doc.definitions.Libro_uni!.properties.publicado).toEqual({ type: "string", format: "date" });
    await expect(SwaggerParser.validate(doc as never)).resolves.toBeTruthy();
  });
});

describe("docs/academic-rest.md's excerpts of the customised vendor resource", () => {
  it("are the example's code as it is", () => {
    const guia = readFileSync(join(proyecto, GUIA), "utf8");
    const seccion = guia.slice(guia.indexOf("### Customising a vendor resource"), guia.indexOf("### Users and authentication"));
    const ejemplo = readFileSync(join(proyecto, "rest/v2/docentes_uni/recurso_docentes_uni.ts"), "utf8");
    const extractos = [...seccion.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(extractos.length).toBeGreaterThan(2);
    for (const e of extractos) expect(ejemplo).toContain(e);
  });
});
