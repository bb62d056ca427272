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

  it("matches values literally: % and _ are not wildcards", () => {
    expect(pasan("contiene;%", ["100%", "abc"])).toEqual(["100%"]);
    expect(pasan("comienza_con;a_", ["a_b", "ab"])).toEqual(["a_b"]);
  });

  it("splits on ; as the original: parts after the value (after the bound for entre) are ignored", () => {
    expect(filtro("contiene;a;b;c")).toEqual({ campo: "nombre", condicion: "contiene", valor: "a" });
    expect(pasan("contiene;a;b;c", ["xay", "b;c", "a;b;c"])).toEqual(["xay", "a;b;c"]);
    expect(pasan("es_igual_a;a;b", ["a;b", "a"])).toEqual(["a"]);
    expect(pasan("entre;B;Carla;Zoe", nombres)).toEqual(["Beto", "Carla"]);
  });

  it("entre with one bound is BETWEEN 'a' AND NULL: nothing matches", () => {
    expect(filtro("entre;a")).toEqual({ campo: "nombre", condicion: "entre", valor: "a" });
    expect(pasan("entre;a", nombres)).toEqual([]);
    expect(pasan("entre;1", [1, 2, 3])).toEqual([]);
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

  it("limit: blank is no limit, numbers are truncated to 0..1000, anything else is refused", () => {
    expect(parsearLimite("20")).toEqual({ ok: true, valor: 20 });
    expect(parsearLimite("2.7")).toEqual({ ok: true, valor: 2 });
    expect(parsearLimite(" 1e2")).toEqual({ ok: true, valor: 100 });
    expect(parsearLimite("0")).toEqual({ ok: true, valor: 0 });
    expect(parsearLimite("")).toEqual({ ok: true, valor: undefined });
    for (const malo of ["abc", "1001", "-1", "0x10"]) {
      expect(parsearLimite(malo)).toEqual({ ok: false, mensaje: `Parámetro 'limit' invalido. Se esperaba un número entre 0 y 1000 y se recibio '${malo}'` });
    }
  });

  it("page: numbers are truncated and must be ≥ 1; a non-numeric page is ignored", () => {
    expect(parsearPagina("3")).toEqual({ ok: true, valor: 3 });
    expect(parsearPagina("2.9")).toEqual({ ok: true, valor: 2 });
    expect(parsearPagina("abc")).toEqual({ ok: true, valor: undefined });
    for (const malo of ["0", "-1", "0.5"]) {
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
    expect(consultar({ order: "-n", limit: "2", page: "1" }).pagina.map((f) => f.nombre)).toEqual(["e", "c"]);
    expect(consultar({ nombre: "es_distinto_de;a", limit: "10" })).toMatchObject({ total: 4 });
  });

  it("limit= (present, blank) means no limit; limit=2.7 is 2; a non-numeric page is ignored; page needs a limit", () => {
    expect(consultar({ limit: "" })).toEqual({ pagina: [filas[2], filas[1], filas[3], filas[0], filas[4]], total: 5 });
    expect(consultar({ limit: "", page: "0" }).pagina).toHaveLength(5);
    expect(consultar({ limit: "2.7" }).pagina).toHaveLength(2);
    expect(consultar({ limit: "2", page: "abc" }).pagina.map((f) => f.nombre)).toEqual(["a", "b"]);
    expect(consultar({ limit: "0" })).toEqual({ pagina: [], total: 5 });
  });

  it("reports the first broken parameter as a zod issue with the original's message", () => {
    const r = esquemaDeConsulta(params).safeParse({ order: "+color" });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]).toMatchObject({ path: ["order"], message: "Parámetro 'order' invalido. No esta permitido ordenar por campo 'color'" });
  });
});
