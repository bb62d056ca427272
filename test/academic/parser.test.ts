/** The doc-comment grammar: every tag form, and every malformed form with its line and message. */
import { describe, expect, it } from "vitest";
import { parsearComentario } from "../../functions/academic/domain/doc/parser.js";
import { resumenCon } from "../../functions/academic/runtime/contexto.js";

/** A comment whose first text line is line 10. */
const comentario = (...lineas: string[]) => ["/**", ...lineas.map((l) => ` * ${l}`), " */"].join("\n");
const parsear = (...lineas: string[]) => parsearComentario(comentario(...lineas), 9);
const doc = (...lineas: string[]) => {
  const r = parsear(...lineas);
  if (!r.ok) throw new Error(JSON.stringify(r.errores));
  return r.doc;
};
const errores = (...lineas: string[]) => {
  const r = parsear(...lineas);
  if (r.ok) throw new Error("expected errors");
  return r.errores;
};

describe("a complete comment", () => {
  it("parses every tag", () => {
    expect(
      doc(
        "GET /aulas-uni/{id_aula}/reservas",
        "@summary Reservas del aula {id_aula}",
        "@notes Primera línea,",
        "       segunda con <b>negrita</b> y un mail a@b.com",
        "@param_query $desde date (defecto: desde;2024-01-01) Fecha inicial",
        "@param_query $order string (defecto: -fecha) [+/-fecha, +/-hora] Orden",
        "@param_query $limit integer (defecto: 20) Máximo",
        "@param_query $page",
        "@responses 200 array {\"$ref\":\"Reserva\"} Arreglo de reservas",
        "@responses 404 No existe",
      ),
    ).toEqual({
      metodo: "GET",
      ruta: "/aulas-uni/{id_aula}/reservas",
      coleccion: "aulas-uni",
      ids: ["id_aula"],
      subcoleccion: "reservas",
      resumen: "Reservas del aula {id_aula}",
      notas: "Primera línea, segunda con <b>negrita</b> y un mail a@b.com",
      cuerpo: undefined,
      query: [
        { nombre: "desde", tipo: "date", defecto: "desde;2024-01-01", descripcion: "Fecha inicial" },
        { nombre: "order", tipo: "string", defecto: "-fecha", terminos: ["fecha", "hora"], descripcion: "Orden" },
        { nombre: "limit", tipo: "integer", defecto: "20", descripcion: "Máximo" },
        { nombre: "page", descripcion: "" },
      ],
      respuestas: [
        { estado: 200, descripcion: "Arreglo de reservas", esquema: { modelo: "Reserva", arreglo: true } },
        { estado: 404, descripcion: "No existe" },
      ],
    });
  });

  it("replaces {id_name} in the summary with the path value at run time", () => {
    expect(resumenCon("Reservas del aula {id_aula}", { id_aula: "7" })).toBe("Reservas del aula 7");
  });
});

describe("first line", () => {
  it.each([
    ["POST /aulas-uni", { metodo: "POST", ruta: "/aulas-uni", coleccion: "aulas-uni", ids: [] }],
    ["PUT /docentes-uni/{id_docente}", { metodo: "PUT", ids: ["id_docente"] }],
    ["DELETE /x/{id}", { metodo: "DELETE", coleccion: "x" }],
    ["GET /a-b-c/{id}/sub-col", { subcoleccion: "sub-col" }],
  ])("%s", (linea, esperado) => {
    expect(doc(linea)).toMatchObject(esperado);
  });

  it.each([
    ["@summary sin ruta", /first line must be/],
    ["get /aulas", /unknown method "get"/],
    ["PATCH /aulas", /unknown method "PATCH"/],
    ["GET /aulas/id", /lowercase words joined by "-", ids in braces/],
    ["GET /Aulas", /found "\/Aulas"/],
    ["GET /aulas/", /found "\/aulas\/"/],
    ["GET /a/{id}/b/{id2}", /found "\/a\/\{id\}\/b\/\{id2\}"/],
    ["GET", /first line must be/],
  ])("%s is an error on line 10", (linea, mensaje) => {
    expect(errores(linea)).toEqual([{ linea: 10, mensaje: expect.stringMatching(mensaje) }]);
  });

  it("an empty comment is an error", () => {
    expect(parsearComentario("/** */", 3)).toMatchObject({ ok: false, errores: [{ linea: 3, mensaje: expect.stringMatching(/empty doc comment/) }] });
  });
});

describe("@param_body", () => {
  it.each([
    ["$aula Aula_uni [required] Datos del aula", { nombre: "aula", modelo: "Aula_uni", requerido: true, descripcion: "Datos del aula" }],
    ["$aula Aula_uni Datos", { nombre: "aula", modelo: "Aula_uni", requerido: false, descripcion: "Datos" }],
    ["$aula Aula_uni", { nombre: "aula", modelo: "Aula_uni", requerido: false, descripcion: "" }],
    ["$aula Aula_uni [required]", { requerido: true, descripcion: "" }],
  ])("%s", (valor, esperado) => {
    expect(doc("POST /aulas-uni", `@param_body ${valor}`).cuerpo).toMatchObject(esperado);
  });

  it.each([
    ["aula Aula_uni", /must start with \$<name>/],
    ["$aula", /expected "\$<name> <Model> \[required\] <description>"/],
    ["$aula Aula_uni [obligatorio] x", /unknown marker \[obligatorio\]/],
  ])("%s is an error on its line", (valor, mensaje) => {
    expect(errores("POST /aulas-uni", "@summary x", `@param_body ${valor}`)).toEqual([{ linea: 12, mensaje: expect.stringMatching(mensaje) }]);
  });

  it("twice, or on GET/DELETE, is an error", () => {
    expect(errores("PUT /a/{id}", "@param_body $a A", "@param_body $b B")).toEqual([{ linea: 12, mensaje: expect.stringMatching(/appears twice/) }]);
    expect(errores("GET /a", "@param_body $a A")).toEqual([{ linea: 10, mensaje: "GET services take no body, but @param_body is declared" }]);
  });
});

describe("@param_query", () => {
  it.each([
    ["$nombre", { nombre: "nombre", descripcion: "" }],
    ["$nombre Filtra por nombre", { nombre: "nombre", descripcion: "Filtra por nombre" }],
    ["$nombre string Filtra", { nombre: "nombre", tipo: "string", descripcion: "Filtra" }],
    ["$apellido_nombre filter Filtro", { tipo: "filter", descripcion: "Filtro" }],
    ["$estado string (defecto: es_igual_a;A) [A\\B] Estado", { defecto: "es_igual_a;A", terminos: ["A", "B"], descripcion: "Estado" }],
    ["$order [a, b] (defecto: +a) Orden", { terminos: ["a", "b"], defecto: "+a", descripcion: "Orden" }],
    ["$order string (defecto: +a,-b) [+/-a, +/-b]", { terminos: ["a", "b"], defecto: "+a,-b", descripcion: "" }],
  ])("%s", (valor, esperado) => {
    expect(doc("GET /x", `@param_query ${valor}`).query[0]).toEqual(expect.objectContaining(esperado));
  });

  it.each([
    ["nombre string x", /must start with \$<name>/],
    ["$ string", /must be followed by the parameter name/],
    ["$nombre strng (defecto: es_igual_a;a) x", /unknown type "strng"/],
    ["$nombre (defecto: es_igual_a;a", /unclosed "\(defecto:"/],
    ["$nombre (defecto: ) x", /has no value/],
    ["$order [a, b x", /unclosed "\["/],
    ["$order [] x", /lists no terms/],
    ["$order string Orden", /\$order needs the fields it may order by/],
    ["$order (defecto: +c) [a, b]", /not a valid order: .*No esta permitido ordenar por campo 'c'/],
    ["$order (defecto: a) [a, b]", /Se esperaba \+ o - y se recibio 'a'/],
    ["$limit integer (defecto: veinte)", /not valid: .*'limit'/],
    ["$page (defecto: 0)", /not valid: .*'page'/],
    ["$nombre (defecto: pepe)", /not a valid filter/],
    ["$api_key string", /reserved for authentication/],
  ])("%s is an error", (valor, mensaje) => {
    expect(errores("GET /x", `@param_query ${valor}`)).toEqual([{ linea: 11, mensaje: expect.stringMatching(mensaje) }]);
  });

  it("a parameter declared twice is an error", () => {
    expect(errores("GET /x", "@param_query $a", "@param_query $a")).toEqual([{ linea: 12, mensaje: "@param_query: parameter $a is declared twice" }]);
  });
});

describe("@responses", () => {
  it.each([
    ["204 Borrado", { estado: 204, descripcion: "Borrado" }],
    ["404", { estado: 404, descripcion: "" }],
    ['200 {"$ref":"Aula_uni"} El aula', { estado: 200, descripcion: "El aula", esquema: { modelo: "Aula_uni", arreglo: false } }],
    ['200 {"$ref":"#/definitions/Aula_uni"}', { esquema: { modelo: "Aula_uni", arreglo: false } }],
    ['200 array {"$ref":"Aula_uni"}', { descripcion: "", esquema: { modelo: "Aula_uni", arreglo: true } }],
    ["203 Arreglo de cursos", { descripcion: "Arreglo de cursos" }],
    ["200 array de aulas", { descripcion: "array de aulas" }],
  ])("%s", (valor, esperado) => {
    expect(doc("GET /x", `@responses ${valor}`).respuestas[0]).toEqual(expect.objectContaining(esperado));
  });

  it.each([
    ["20 OK", /"20" is not an HTTP status/],
    ["600 x", /"600" is not an HTTP status/],
    ["OK", /"OK" is not an HTTP status/],
    ["200 {$ref:Aula}", /is not valid JSON/],
    ['200 {"type":"string"}', /expected \{"\$ref":"<Model>"\}/],
    ['200 {"$ref":"Aula"', /unclosed "\{"/],
    ["200 array {}", /expected \{"\$ref":"<Model>"\}/],
  ])("%s is an error", (valor, mensaje) => {
    expect(errores("GET /x", `@responses ${valor}`)).toEqual([{ linea: 11, mensaje: expect.stringMatching(mensaje) }]);
  });

  it("the same status twice is an error", () => {
    expect(errores("GET /x", "@responses 200 a", "@responses 200 b")).toEqual([{ linea: 12, mensaje: "@responses: status 200 is documented twice" }]);
  });
});

describe("@summary, @notes, unknown tags, stray text", () => {
  it("summary placeholders must be path parameters", () => {
    expect(errores("GET /x/{id_x}", "@summary X {id_y}")).toEqual([{ linea: 10, mensaje: "@summary: {id_y} is not a path parameter of /x/{id_x}" }]);
  });

  it("summary and notes may appear once", () => {
    expect(errores("GET /x", "@summary a", "@summary b")).toEqual([{ linea: 12, mensaje: "@summary: appears twice" }]);
    expect(errores("GET /x", "@notes a", "@notes b")).toEqual([{ linea: 12, mensaje: expect.stringMatching(/@notes: appears twice/) }]);
  });

  it("an unknown tag and text outside a tag are errors with their lines", () => {
    expect(errores("GET /x", "@sumary typo", "@param_path $id x")).toEqual([
      { linea: 11, mensaje: "unknown tag @sumary (known: @summary, @notes, @param_query, @param_body, @responses)" },
      { linea: 12, mensaje: expect.stringMatching(/unknown tag @param_path/) },
    ]);
    expect(errores("GET /x", "Texto suelto", "@summary ok")).toEqual([{ linea: 11, mensaje: expect.stringMatching(/text outside a tag: "Texto suelto"/) }]);
  });

  it("reports every error of a comment at once", () => {
    expect(errores("GET /x", "@responses 2000", "@param_query x", "@foo")).toHaveLength(3);
  });
});
