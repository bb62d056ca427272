/**
 * The vendor resource `docentes` and the derived `docentes-uni`: GET list (customized), GET one
 * (inherited), PUT create-or-update, DELETE with associated data, and the disabled comisiones service,
 * on both releases.
 */
import { describe, expect, it } from "vitest";
import { rest_docentes } from "../../rest/v2/modelos/rest_docentes.js";
import { acad, acadAparte, marca, q, RELEASES } from "./support.js";

let siguiente = 700_000_000 + Math.floor(Math.random() * 10_000_000);
const nuevoId = () => String(siguiente++);

const docente = (apellido: string, nombre: string, extra: Record<string, unknown> = {}) => ({ legajo: `L-${apellido}`, apellido, nombre, dni: "30111222", ...extra });

for (const { release, base } of RELEASES) {
  describe(`${release} PUT /docentes-uni/{id_docente}`, () => {
    it("creates (201 {docente}) and then modifies (204, empty body)", async () => {
      const id = nuevoId();
      const creado = await acad("PUT", `${base}/docentes-uni/${id}`, { body: docente("Pérez", "Ana") });
      expect(creado.status).toBe(201);
      expect(creado.body).toEqual({ docente: Number(id) });
      const modificado = await acad("PUT", `${base}/docentes-uni/${id}`, { body: docente("Pérez", "Ana María", { activo: false }) });
      expect(modificado.status).toBe(204);
      expect(modificado.text).toBe("");
      const leido = await acad("GET", `${base}/docentes-uni/${id}`);
      expect(leido.body).toMatchObject({ nombre: "Ana María", activo: false });
    });

    it("validates the body against Docente_uni and the id as a positive integer", async () => {
      const sinApellido = await acad("PUT", `${base}/docentes-uni/${nuevoId()}`, { body: { nombre: "Ana", dni: 3, activo: "si", foto: "x" } });
      expect(sinApellido.status).toBe(400);
      expect(sinApellido.body).toMatchObject({
        descripcion: "Error en la validación del recurso",
        detalle: {
          apellido: ["El campo 'apellido' es obligatoio."],
          dni: ["El campo 'dni' debe ser de tipo string. Se recibió '3'."],
          activo: ["El campo 'activo' debe ser de tipo boolean. Se recibió 'si'."],
          campos_no_permitidos: ["Se encontraron campos no permitidos: foto."],
        },
      });
      const enorme = await acadAparte("PUT", `${base}/docentes-uni/${nuevoId()}`, JSON.stringify(docente("X".repeat(450_000), "Y")));
      expect(enorme).toMatchObject({ status: 413, body: { error: 413, descripcion: "El cuerpo del pedido excede el tamaño máximo de 262144 bytes (256 KiB)" } });
      const idMalo = await acad("PUT", `${base}/docentes-uni/abc`, { body: docente("X", "Y") });
      expect(idMalo).toMatchObject({ status: 400, body: { descripcion: "Parámetro 'id_docente' invalido. Se esperaba un número entero positivo y se recibio 'abc'" } });
    });
  });

  describe(`${release} GET /docentes-uni and GET /docentes-uni/{id_docente}`, () => {
    it("lists active teachers only, as Docente_uni, ordered +apellido,+nombre by default", async () => {
      const a = marca("Ap");
      const datos = [docente(`${a}b`, "Zoe"), docente(`${a}a`, "Luis"), docente(`${a}a`, "Eva"), docente(`${a}c`, "Inactivo", { activo: false })];
      const ids = [nuevoId(), nuevoId(), nuevoId(), nuevoId()];
      for (const [i, d] of datos.entries()) expect((await acad("PUT", `${base}/docentes-uni/${ids[i]}`, { body: d })).status).toBe(201);
      const r = await acad("GET", `${base}/docentes-uni?apellido_nombre=${q(`comienza_con;${a}`)}`);
      expect(r.status).toBe(200);
      expect(r.body.map((d: any) => `${d.apellido} ${d.nombre}`)).toEqual([`${a}a Eva`, `${a}a Luis`, `${a}b Zoe`]);
      expect(r.body[0]).toEqual({ docente: Number(ids[2]), legajo: `L-${a}a`, apellido: `${a}a`, nombre: "Eva", activo: true, dni: "30111222" });
      const porLegajo = await acad("GET", `${base}/docentes-uni?apellido_nombre=${q(`comienza_con;${a}`)}&order=${q("-legajo,-nombre")}`);
      expect(porLegajo.body.map((d: any) => d.nombre)).toEqual(["Zoe", "Luis", "Eva"]);
      const nombreCompleto = await acad("GET", `${base}/docentes-uni?apellido_nombre=${q(`es_igual_a;${a}a Luis`)}`);
      expect(nombreCompleto.body.map((d: any) => d.nombre)).toEqual(["Luis"]);
      const vendor = await acad("GET", `${base}/docentes?apellido_nombre=${q(`comienza_con;${a}`)}`);
      expect(vendor.body.map((d: any) => d.nombre)).toEqual(["Eva", "Luis", "Zoe"]);
      expect(Object.keys(vendor.body[0])).toEqual(["docente", "legajo", "apellido", "nombre", "activo"]);
    });

    it("GET one is the inherited vendor service: Docente shape, 404 when missing", async () => {
      const id = nuevoId();
      await acad("PUT", `${base}/docentes-uni/${id}`, { body: docente("Gómez", "Raúl") });
      const r = await acad("GET", `${base}/docentes-uni/${id}`);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ docente: Number(id), legajo: "L-Gómez", apellido: "Gómez", nombre: "Raúl", activo: true });
      const falta = await acad("GET", `${base}/docentes-uni/${nuevoId()}`);
      expect(falta).toMatchObject({ status: 404, body: { error: 404, descripcion: "No se pudo encontrar el recurso en el servidor" } });
    });
  });

  describe(`${release} DELETE /docentes-uni/{id_docente}`, () => {
    it("removes the teacher with its associated data (204, empty body), then 404", async () => {
      const id = nuevoId();
      await acad("PUT", `${base}/docentes-uni/${id}`, { body: docente("Borrable", "Uno") });
      const capa = new rest_docentes();
      await capa.agregar_comision(id, { comision: 1, nombre: "Álgebra A", periodo: "2024-1" });
      await capa.agregar_comision(id, { comision: 2, nombre: "Álgebra B", periodo: "2024-1" });
      const comisiones = await acad("GET", `${base}/docentes/${id}/comisiones`);
      expect(comisiones.body.map((c: any) => c.nombre)).toEqual(["Álgebra A", "Álgebra B"]);
      const r = await acad("DELETE", `${base}/docentes-uni/${id}`);
      expect(r.status).toBe(204);
      expect(r.text).toBe("");
      expect(await capa.get(id)).toBeUndefined();
      expect(await capa.get_comisiones(id)).toEqual([]);
      expect((await acad("GET", `${base}/docentes-uni/${id}`)).status).toBe(404);
      const otraVez = await acad("DELETE", `${base}/docentes-uni/${id}`);
      expect(otraVez).toMatchObject({ status: 404, body: { error: 404, mensaje: "404 Not Found" } });
    });
  });

  describe(`${release} GET /docentes-uni/{id_docente}/comisiones (disabled)`, () => {
    it("always answers 500 saying the service is unavailable, while the vendor's still works", async () => {
      const id = nuevoId();
      await acad("PUT", `${base}/docentes-uni/${id}`, { body: docente("Con", "Comisiones") });
      await new rest_docentes().agregar_comision(id, { comision: 9, nombre: "Física", periodo: "2024-2" });
      for (const cual of [id, nuevoId()]) {
        const r = await acad("GET", `${base}/docentes-uni/${cual}/comisiones`, { como: "verificador" });
        expect(r.status).toBe(500);
        expect(r.body).toEqual({ error: 500, mensaje: "500 Internal Server Error", descripcion: "El servicio GET /docentes-uni/{id_docente}/comisiones no está disponible" });
      }
      const vendor = await acad("GET", `${base}/docentes/${id}/comisiones`);
      expect(vendor).toMatchObject({ status: 200, body: [{ comision: 9, nombre: "Física", periodo: "2024-2" }] });
    });
  });
}
