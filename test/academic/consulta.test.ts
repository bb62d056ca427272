/** Filter, order, limit and page semantics and messages (domain level, one case per condition). */
import { describe, expect, it } from "vitest";
import { CONDICIONES, cumple, parsearFiltro, type Filtro } from "../../functions/academic/domain/filtros.js";
import { aplicarConsulta, esquemaDeConsulta, parsearLimite, parsearOrden, parsearPagina } from "../../functions/academic/domain/consulta.js";
import type { ParamQuery } from "../../functions/academic/domain/doc/tipos.js";

const filtro = (crudo: string): Filtro => {
  const r = parsearFiltro("nombre", crudo);
  if (!r.ok || !r.filtro) throw new Error(`no filter from ${crudo}`);
  return r.filtro;
};
const pasan = (crudo: string, valores: unknown[]) => valores.filter((v) => cumple(filtro(crudo), v));

describe("the 13 conditions", () => {
  const nombres = ["Ana", "ana", "Beto", "Carla", "Dario", "%_x", null];
  const casos: Record<(typeof CONDICIONES)[number], [string, unknown[]]> = {
    entre: ["entre;B;Carla", ["Beto", "Carla"]],
    es_mayor_que: ["es_mayor_que;Carla", ["Dario"]],
    desde: ["desde;Carla", ["Carla", "Dario"]],
    es_mayor_igual_que: ["es_mayor_igual_que;Carla", ["Carla", "Dario"]],
    es_menor_que: ["es_menor_que;Beto", ["Ana", "ana", "%_x"]],
    es_menor_igual_que: ["es_menor_igual_que;Beto", ["Ana", "ana", "Beto", "%_x"]],
    hasta: ["hasta;Beto", ["Ana", "ana", "Beto", "%_x"]],
    es_igual_a: ["es_igual_a;Ana", ["Ana"]],
    es_distinto_de: ["es_distinto_de;Ana", ["ana", "Beto", "Carla", "Dario", "%_x"]],
    contiene: ["contiene;AR", ["Carla", "Dario"]],
    no_contiene: ["no_contiene;a", ["Beto", "%_x"]],
    comienza_con: ["comienza_con;AN", ["Ana", "ana"]],
    termina_con: ["termina_con;O", ["Beto", "Dario"]],
  };
  for (const condicion of CONDICIONES) {
    it(condicion, () => {
      const [crudo, esperado] = casos[condicion];
      expect(pasan(crudo, nombres)).toEqual(esperado);
    });
  }

  it("matches values literally: % and _ are not wildcards, and ; belongs to the value", () => {
    expect(pasan("contiene;%", ["100%", "abc"])).toEqual(["100%"]);
    expect(pasan("comienza_con;a_", ["a_b", "ab"])).toEqual(["a_b"]);
    expect(pasan("es_igual_a;a;b", ["a;b", "a"])).toEqual(["a;b"]);
  });

  it("compares numbers numerically and booleans as booleans; missing values never match", () => {
    expect(pasan("es_mayor_que;9", [10, 9, 100, null, undefined])).toEqual([10, 100]);
    expect(pasan("entre;2;10", [1, 2, 10, 11])).toEqual([2, 10]);
    expect(pasan("es_igual_a;true", [true, false])).toEqual([true]);
    expect(pasan("es_distinto_de;x", [null, "y"])).toEqual(["y"]);
  });

  it("ignores case but not accents in text conditions", () => {
    expect(pasan("contiene;PEREZ", ["Pérez", "perez"])).toEqual(["perez"]);
  });
});

describe("filter syntax errors (the original's messages)", () => {
  it.each([
    ["pepe", "Parámetro 'nombre' invalido. Se esperaba 'condicion;valor' y llego 'pepe'"],
    ["igual;pepe", "Parámetro 'nombre' invalido. No es valida la condicion 'igual'"],
    ["ES_IGUAL_A;pepe", "Parámetro 'nombre' invalido. No es valida la condicion 'ES_IGUAL_A'"],
    ["entre;a", "Parámetro 'nombre' invalido. Se esperaba 'entre;valor1;valor2' y llego 'entre;a'"],
  ])("%s", (crudo, mensaje) => {
    expect(parsearFiltro("nombre", crudo)).toEqual({ ok: false, mensaje });
  });

  it("a blank value is no filter; the whole value is trimmed, the parts are not", () => {
    expect(parsearFiltro("nombre", "  ")).toEqual({ ok: true, filtro: undefined });
    expect(filtro("  es_igual_a; pepe ")).toEqual({ campo: "nombre", condicion: "es_igual_a", valor: " pepe" });
  });
});

describe("order, limit, page", () => {
  it("parses +/- terms among the allowed fields; a leading space (an unencoded +) is ascending", () => {
    expect(parsearOrden("+nombre,-estado", ["nombre", "estado"])).toEqual({ ok: true, valor: [{ campo: "nombre", descendente: false }, { campo: "estado", descendente: true }] });
    expect(parsearOrden(" nombre, -estado", ["nombre", "estado"])).toEqual({ ok: true, valor: [{ campo: "nombre", descendente: false }, { campo: "estado", descendente: true }] });
  });

  it.each([
    ["nombre", "Parámetro 'order' invalido. Se esperaba + o - y se recibio 'n'"],
    ["+nombre,", "Parámetro 'order' invalido. Se esperaba + o - y se recibio ''"],
    ["+color", "Parámetro 'order' invalido. No esta permitido ordenar por campo 'color'"],
  ])("order %s → 400 message", (crudo, mensaje) => {
    expect(parsearOrden(crudo, ["nombre", "estado"])).toEqual({ ok: false, mensaje });
  });

  it("limit is 1..1000 and page ≥ 1", () => {
    expect(parsearLimite("20")).toEqual({ ok: true, valor: 20 });
    expect(parsearLimite("0")).toEqual({ ok: false, mensaje: "Parámetro 'limit' invalido. Se esperaba un entero entre 1 y 1000 y se recibio '0'" });
    expect(parsearLimite("1001").ok).toBe(false);
    expect(parsearLimite("2.5").ok).toBe(false);
    expect(parsearPagina("3")).toEqual({ ok: true, valor: 3 });
    for (const malo of ["0", "-1", "x"]) {
      expect(parsearPagina(malo)).toEqual({ ok: false, mensaje: `Parámetro 'page' invalido. Se esperaba un valor mayor o igual que 1 y se recibio '${malo}'` });
    }
  });

  const params: ParamQuery[] = [
    { nombre: "nombre", descripcion: "" },
    { nombre: "order", descripcion: "", defecto: "+nombre", terminos: ["nombre", "n"] },
    { nombre: "limit", descripcion: "", defecto: "2" },
    { nombre: "page", descripcion: "" },
  ];
  const filas = ["d", "b", "a", "c", "e"].map((nombre, n) => ({ nombre, n }));
  const consultar = (query: Record<string, string>) => {
    const c = esquemaDeConsulta(params).parse(query);
    return aplicarConsulta(filas, c, (f, campo) => f[campo as keyof typeof f]);
  };

  it("applies defaults, pages from 1, counts matches before paging, ignores undeclared parameters", () => {
    expect(consultar({})).toEqual({ pagina: [filas[2], filas[1]], total: 5 });
    expect(consultar({ page: "3", color: "rojo" }).pagina.map((f) => f.nombre)).toEqual(["e"]);
    expect(consultar({ order: "-n", limit: "", page: "1" }).pagina.map((f) => f.nombre)).toEqual(["e", "c"]);
    expect(consultar({ nombre: "es_distinto_de;a", limit: "10" })).toMatchObject({ total: 4 });
  });

  it("reports the first broken parameter as a zod issue with the original's message", () => {
    const r = esquemaDeConsulta(params).safeParse({ order: "+color" });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]).toMatchObject({ path: ["order"], message: "Parámetro 'order' invalido. No esta permitido ordenar por campo 'color'" });
  });
});
