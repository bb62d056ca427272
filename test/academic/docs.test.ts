/**
 * What a browser and a client see without calling a service: the HTML index at `/rest/v2/` and
 * `/rest/`, the Swagger 2.0 documents with the 3.22/3.16 differences, and unknown paths.
 */
import SwaggerParser from "@apidevtools/swagger-parser";
import { describe, expect, it } from "vitest";
import { acad, RELEASES } from "./support.js";
import { documentoSwagger, propiedad } from "../../functions/academic/domain/swagger.js";
import { descripcionSwagger } from "../../functions/academic/domain/doc/marcado.js";
import { validador } from "../../functions/academic/domain/validador.js";

describe("Swagger 2.0 documents", () => {
  it("3.22: #/definitions/ references, fecha_creacion a date-validated string", async () => {
    const r = await acad("GET", "/rest/v2/api-docs");
    expect(r.status).toBe(200);
    const doc = r.body;
    expect(doc).toMatchObject({ swagger: "2.0", basePath: "/rest/v2", info: { version: "3.22" } });
    expect(doc.definitions.Aula_uni.properties).toEqual({
      nombre: { type: "string" },
      fecha_creacion: { type: "string", format: "date" },
      estado: { type: "string", enum: ["A", "B"] },
      edificio: { $ref: "#/definitions/Edificio_uni" },
    });
    expect(doc.definitions.Edificio_uni.properties).toEqual({ nombre: { type: "string" } });
    expect(Object.keys(doc.definitions.Docente_uni.properties)).toEqual(["docente", "legajo", "apellido", "nombre", "activo", "dni"]);
    expect(doc.definitions.Docente_uni.required).toEqual(["apellido", "nombre"]);
    // What GET returns declares the id; what POST takes stays the seed's Aula_uni.
    expect(doc.definitions.AulaMostrar_uni.properties).toEqual({ aula: { type: "integer", readOnly: true, description: "Identificador del aula" }, ...doc.definitions.Aula_uni.properties });
    const lista = doc.paths["/aulas-uni"].get;
    expect(lista.responses["200"]).toEqual({ description: "Aulas", schema: { type: "array", items: { $ref: "#/definitions/AulaMostrar_uni" } } });
    expect(doc.paths["/aulas-uni/{id_aula}"].get.responses["200"].schema).toEqual({ $ref: "#/definitions/AulaMostrar_uni" });
    expect(lista.parameters).toContainEqual(expect.objectContaining({ name: "order", in: "query", default: "+nombre,+estado" }));
    expect(lista.parameters).toContainEqual(expect.objectContaining({ name: "limit", in: "query", type: "integer", default: 20 }));
    expect(doc.paths["/aulas-uni"].post.parameters).toEqual([
      { name: "aula", in: "body", description: "Datos del aula", required: true, schema: { $ref: "#/definitions/Aula_uni" } },
    ]);
    expect(doc.paths["/aulas-uni/{id_aula}"].get).toMatchObject({ summary: "Aula {id_aula}", parameters: [{ name: "id_aula", in: "path", required: true, type: "string" }] });
    expect(doc.paths["/docentes-uni"].get.summary).toBe("[PERS] Docentes activos");
    expect(doc.paths["/docentes-uni/{id_docente}"].get.operationId).toBe("get_docentes_uni_by_id_docente");
    expect(doc.paths["/docentes/{id_docente}"].get.operationId).toBe("get_docentes_by_id_docente");
    expect(doc.paths["/docentes-uni/{id_docente}/comisiones"].get.operationId).toBe("get_docentes_uni_by_id_docente_comisiones");
    expect(Object.keys(doc.paths["/docentes-uni/{id_docente}"])).toEqual(["get", "put", "delete"]);
    expect(doc.securityDefinitions).toEqual({ basic: { type: "basic" }, api_key: { type: "apiKey", in: "query", name: "api_key" } });
  });

  it("3.16: the seed's authoring forms (bare model names, date) written as Swagger 2.0", async () => {
    const doc = (await acad("GET", "/rest/api-docs")).body;
    expect(doc).toMatchObject({ swagger: "2.0", basePath: "/rest", info: { version: "3.16" } });
    expect(doc.definitions.Aula_uni.properties.fecha_creacion).toEqual({ type: "string", format: "date" });
    expect(doc.definitions.Aula_uni.properties.edificio).toEqual({ $ref: "#/definitions/Edificio_uni" });
    expect(doc.paths["/aulas-uni"].get.responses["200"].schema).toEqual({ type: "array", items: { $ref: "#/definitions/AulaMostrar_uni" } });
    expect(doc.definitions.AulaMostrar_uni.properties.aula).toEqual({ type: "integer", readOnly: true, description: "Identificador del aula" });
    expect(doc.paths["/aulas-uni"].post.parameters[0].schema).toEqual({ $ref: "#/definitions/Aula_uni" });
  });

  for (const { release, base } of RELEASES) {
    it(`${release}: descriptions are Markdown for Swagger UI — a filter's <condicion>;<valor> and a <id> are not taken for HTML`, async () => {
      const doc = (await acad("GET", `${base}/api-docs`)).body;
      const nombre = doc.paths["/aulas-uni"].get.parameters.find((p: { name: string }) => p.name === "nombre");
      expect(nombre.description).toBe("Filtro por nombre. Formato: `<condicion>;<valor>`.");
      expect(doc.paths["/docentes-uni/{id_docente}"].put.responses["201"].description).toBe('Docente creado: {"docente": &lt;id&gt;}');
      // The notes' own markup stays HTML.
      expect(doc.paths["/docentes-uni"].get.description).toContain("<b>activos</b>");
    });
  }

  for (const { release, base } of RELEASES) {
    it(`${release}: swagger-parser (the official Swagger 2.0 schema, then the spec's rules) accepts ${base}/api-docs`, async () => {
      const doc = (await acad("GET", `${base}/api-docs`)).body;
      const validado = await SwaggerParser.validate(structuredClone(doc));
      expect(validado).toMatchObject({ swagger: "2.0", basePath: base });
      const ids = Object.values(doc.paths as Record<string, Record<string, { operationId: string }>>).flatMap((ops) => Object.values(ops).map((o) => o.operationId));
      expect(new Set(ids).size).toBe(ids.length);
      for (const id of ids) expect(id).toMatch(/^(get|post|put|delete)(_[a-z0-9]+)+$/);
    });
  }

  it("a model written in the 3.16 forms (bare $ref, type date, int64, array of models) is written as Swagger 2.0", async () => {
    const modelos = {
      Sala: { apertura: { type: "date" }, edificio: { $ref: "Edificio" }, vecinas: { type: "array", items: { $ref: "Edificio" } }, codigo: { type: "int64" }, alta: { type: "string", _validar: [validador.fecha()] } },
      Edificio: { nombre: { type: "string" } },
    } as const;
    for (const release of ["3.16", "3.22"] as const) {
      const doc = documentoSwagger([], modelos as never, release) as { definitions: Record<string, { properties: unknown }> };
      expect(doc.definitions.Sala!.properties).toEqual({
        apertura: { type: "string", format: "date" },
        edificio: { $ref: "#/definitions/Edificio" },
        vecinas: { type: "array", items: { $ref: "#/definitions/Edificio" } },
        codigo: { type: "integer", format: "int64" },
        alta: { type: "string", format: "date" },
      });
      await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
    }
  });

  it("descriptions keep the notes' markup (<b>, <br>, <code>…) and escape every other angle bracket, model fields' too", () => {
    expect(descripcionSwagger("Lista <b>activos</b>;<br/>usa <code>x</code> como <condicion> y a < b > c")).toBe(
      "Lista <b>activos</b>;<br>usa <code>x</code> como &lt;condicion&gt; y a &lt; b &gt; c",
    );
    expect(descripcionSwagger('<script>alert(1)</script> <b onclick="x">')).toBe('&lt;script&gt;alert(1)&lt;/script&gt; &lt;b onclick="x"&gt;');
    expect(propiedad({ type: "string", description: "Formato <dd/mm>" })).toEqual({ type: "string", description: "Formato &lt;dd/mm&gt;" });
  });

  it("requires authentication, like the original's firewall", async () => {
    const r = await acad("GET", "/rest/v2/api-docs", { como: "anonimo" });
    expect(r.status).toBe(401);
    expect(r.headers.get("www-authenticate")).toContain("Basic");
    expect((await acad("GET", "/rest/api-docs", { como: "invitado" })).status).toBe(200);
  });
});

describe("HTML index", () => {
  for (const { release, base } of RELEASES) {
    for (const path of [base, `${base}/`]) {
      it(`${path} lists every resource and service, self-contained`, async () => {
        const r = await acad("GET", path);
        expect(r.status).toBe(200);
        expect(r.headers.get("content-type")).toContain("text/html");
        for (const ruta of ["/aulas-uni", "/aulas-uni/{id_aula}", "/docentes-uni/{id_docente}/comisiones", "/docentes"]) expect(r.text).toContain(`${base}${ruta}`);
        expect(r.text).toContain(`release ${release}`);
        expect(r.text).toContain(`href="${base}/api-docs"`);
        expect(r.text).toContain("<b>activos</b>");
        expect(r.text).not.toMatch(/<script|https?:\/\//);
      });
    }
  }

  it("asks a browser for credentials", async () => {
    const r = await acad("GET", "/rest/v2/", { como: "anonimo" });
    expect(r.status).toBe(401);
    expect(r.headers.get("www-authenticate")).toBe('Basic realm="Usuario de la API"');
  });
});

describe("unknown paths", () => {
  for (const { base } of RELEASES) {
    it(`${base}: 404 envelope without internal details for an unknown resource`, async () => {
      for (const path of ["/cursos", "/aulas_uni", "/aulas-uni/1/x", "/docentes-uni/5/"]) {
        const r = await acad("GET", `${base}${path}`);
        expect(r.status).toBe(404);
        expect(r.body).toEqual({ error: 404, mensaje: "404 Not Found", descripcion: "No se encuentra el recurso solicitado" });
        expect(r.text).not.toMatch(/\.ts|\/work|functions|rest\/v2\/[a-z_]+\//);
      }
    });

    it(`${base}: 405 with Allow for a known path and another method`, async () => {
      const r = await acad("PATCH", `${base}/aulas-uni`);
      expect(r.status).toBe(405);
      expect(r.headers.get("allow")).toBe("GET, POST");
      const d = await acad("POST", `${base}/docentes-uni/5`);
      expect(d).toMatchObject({ status: 405, body: { error: 405, mensaje: "405 Method Not Allowed" } });
    });
  }
});
