/**
 * Filters, order, limit and page over HTTP on both releases: each of the 13 conditions on
 * `aulas-uni?nombre=`, and every invalid filter, condition, order term, limit and page answering 400
 * in SIU's envelope with the original's message.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { acad, marca, q, RELEASES } from "./support.js";

const p = marca("F");
const nombres = ["a1", "b2", "c3", "d4", "e5"].map((s) => `${p}-${s}`);
const [a, b, c, d, e] = nombres as [string, string, string, string, string];

beforeAll(async () => {
  for (const nombre of nombres) expect((await acad("POST", "/rest/v2/aulas-uni", { body: { nombre, estado: nombre === c ? "B" : "A" } })).status).toBe(201);
});

/** This test's classrooms among the matches (other tests' classrooms share the table). */
async function mias(base: string, filtroNombre: string, extra = ""): Promise<string[]> {
  const r = await acad("GET", `${base}/aulas-uni?nombre=${q(filtroNombre)}&limit=1000${extra}`);
  expect(r.status).toBe(200);
  return r.body.map((x: any) => x.nombre).filter((n: string) => n.startsWith(`${p}-`));
}

const casos: [string, string[]][] = [
  [`entre;${b};${d}`, [b, c, d]],
  [`es_mayor_que;${c}`, [d, e]],
  [`desde;${c}`, [c, d, e]],
  [`es_mayor_igual_que;${d}`, [d, e]],
  [`es_menor_que;${b}`, [a]],
  [`es_menor_igual_que;${b}`, [a, b]],
  [`hasta;${a}`, [a]],
  [`es_igual_a;${c}`, [c]],
  [`es_distinto_de;${c}`, [a, b, d, e]],
  [`contiene;${p.toUpperCase()}-C`, [c]],
  [`no_contiene;-c`, [a, b, d, e]],
  [`comienza_con;${p}-E`, [e]],
  [`termina_con;4`, [d]],
];

for (const { release, base } of RELEASES) {
  describe(`${release} filters`, () => {
    it.each(casos)(`nombre=%s`, async (filtro, esperado) => {
      expect(await mias(base, filtro)).toEqual(esperado);
    });

    it("combines filters (AND) and matches % and _ literally", async () => {
      expect(await mias(base, `comienza_con;${p}`, `&estado=${q("es_igual_a;B")}`)).toEqual([c]);
      expect(await mias(base, `contiene;${p}%`)).toEqual([]);
      expect(await mias(base, `comienza_con;${p.slice(0, -1)}_`)).toEqual([]);
    });

    it("ignores parts after the value, as the library: contiene;x;b;c filters contiene;x", async () => {
      expect(await mias(base, `contiene;${p}-c;zzz;yyy`)).toEqual([c]);
      expect(await mias(base, `entre;${b};${c};${e}`)).toEqual([b, c]);
    });

    it("entre with one bound matches nothing (BETWEEN 'a' AND NULL)", async () => {
      const r = await acad("GET", `${base}/aulas-uni?nombre=${q(`entre;${a}`)}`);
      expect(r).toMatchObject({ status: 200, body: [] });
      expect(r.headers.get("cantidad-registros")).toBe("0");
    });

    it("limit=2&page=abc applies the limit and ignores the page; limit=2.7 is 2; limit= is no limit", async () => {
      const filtro = `nombre=${q(`comienza_con;${p}`)}&order=%2Bnombre`;
      expect((await acad("GET", `${base}/aulas-uni?${filtro}&limit=2&page=abc`)).body.map((x: any) => x.nombre)).toEqual([a, b]);
      expect((await acad("GET", `${base}/aulas-uni?${filtro}&limit=2.7`)).body.map((x: any) => x.nombre)).toEqual([a, b]);
      expect((await acad("GET", `${base}/aulas-uni?${filtro}&limit=`)).body.map((x: any) => x.nombre)).toEqual(nombres);
      expect((await acad("GET", `${base}/aulas-uni?${filtro}&page=abc`)).status).toBe(200);
    });

    it("orders by the requested terms and pages", async () => {
      const r = await acad("GET", `${base}/aulas-uni?nombre=${q(`comienza_con;${p}`)}&order=${q("-estado,-nombre")}&limit=2&page=2`);
      expect(r.body.map((x: any) => x.nombre)).toEqual([d, b]);
      expect(r.headers.get("cantidad-registros")).toBe("5");
    });
  });

  describe(`${release} invalid query parameters → 400 envelope`, () => {
    it.each([
      ["nombre=pepe", "Parámetro 'nombre' invalido. Se esperaba 'condicion;valor' y llego 'pepe'"],
      ["estado=igual;A", "Parámetro 'estado' invalido. No es valida la condicion 'igual'"],
      [`order=${q("nombre")}`, "Parámetro 'order' invalido. Se esperaba + o - y se recibio 'n'"],
      [`order=${q("+fecha_creacion")}`, "Parámetro 'order' invalido. No esta permitido ordenar por campo 'fecha_creacion'"],
      ["page=0", "Parámetro 'page' invalido. Se esperaba un valor mayor o igual que 1 y se recibio '0'"],
      ["page=-2", "Parámetro 'page' invalido. Se esperaba un valor mayor o igual que 1 y se recibio '-2'"],
      ["limit=5000", "Parámetro 'limit' invalido. Se esperaba un número entre 0 y 1000 y se recibio '5000'"],
      ["limit=abc", "Parámetro 'limit' invalido. Se esperaba un número entre 0 y 1000 y se recibio 'abc'"],
    ])("%s", async (query, descripcion) => {
      const r = await acad("GET", `${base}/aulas-uni?${query}`);
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ error: 400, mensaje: "400 Bad Request", descripcion });
    });

    it("an unencoded + (a space) in order counts as ascending", async () => {
      const r = await acad("GET", `${base}/aulas-uni?nombre=${q(`comienza_con;${p}`)}&order=+nombre&limit=1`);
      expect(r.body.map((x: any) => x.nombre)).toEqual([a]);
    });
  });
}
