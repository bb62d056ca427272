/** Body validation rules and messages (SIU's `rest_validador`), plus type, nested-model and readOnly handling. */
import { describe, expect, it } from "vitest";
import { aplicarRegla, esFecha, esquemaDeCuerpo, validador, validar } from "../../functions/academic/domain/validador.js";
import type { Modelos } from "../../functions/academic/domain/modelos.js";

describe("rules", () => {
  it("obligatorio (with the original's typo) fails only on empty values", () => {
    for (const vacio of [undefined, null, "", []]) expect(aplicarRegla(validador.obligatorio(), "x", vacio)).toBe("El campo 'x' es obligatoio.");
    for (const lleno of [0, false, "0", "a"]) expect(aplicarRegla(validador.obligatorio(), "x", lleno)).toBeUndefined();
  });

  it("every other rule accepts empty values", () => {
    for (const regla of [validador.fecha(), validador.enum(["A"]), validador.entero(), validador.longitud({ max: 1 })]) {
      expect(aplicarRegla(regla, "x", "")).toBeUndefined();
      expect(aplicarRegla(regla, "x", null)).toBeUndefined();
    }
  });

  it("fecha: Y-m-d by default (lenient digits, real calendar days), or a given format", () => {
    expect(["2024-02-29", "2020-2-3", "20-02-03"].filter((f) => esFecha(f))).toHaveLength(3);
    expect(["2021-02-29", "2024-13-01", "2024-01-01 ", "01/02/2024", "hoy"].filter((f) => esFecha(f))).toEqual([]);
    expect(esFecha("31/12/2024", "d/m/Y")).toBe(true);
    expect(aplicarRegla(validador.fecha(), "f", "2021-02-29")).toBe("El campo 'f' debe ser una fecha. Se recibió '2021-02-29'.");
    expect(aplicarRegla(validador.fecha("d/m/Y"), "f", "2024-01-01")).toBe("El campo 'f' debe ser una fecha. Se recibió '2024-01-01'. Parámetros: format => d/m/Y");
    expect(aplicarRegla(validador.fecha(), "f", 20240101)).toMatch(/debe ser una fecha/);
  });

  it("enum compares strictly and lists the options as the original does", () => {
    expect(aplicarRegla(validador.enum(["A", "B"]), "estado", "A")).toBeUndefined();
    expect(aplicarRegla(validador.enum([1, 2]), "n", "1")).toBe("El campo 'n' no pertenece a la lista de opciones válidas. Se recibió '1'. Parámetros: 0, 1 => 1, 2");
  });

  it("entero and longitud with bounds", () => {
    expect(aplicarRegla(validador.entero({ min: 1, max: 5 }), "n", 3)).toBeUndefined();
    expect(aplicarRegla(validador.entero({ min: 1, max: 5 }), "n", "-5")).toBe("El campo 'n' debe ser un número entero. Se recibió '-5'. Parámetros: min, max => 1, 5");
    expect(aplicarRegla(validador.longitud({ max: 3 }), "s", "ñandú")).toBe("El campo 's' debe tener longitud apropiada. Se recibió 'ñandú'. Parámetros: max => 3");
    expect(aplicarRegla(validador.longitud({ max: 5 }), "s", "ñandú")).toBeUndefined();
  });
});

describe("validating a body against a model", () => {
  const modelos: Modelos = {
    Aula: {
      id: { type: "integer", readOnly: true },
      nombre: { type: "string", _validar: [validador.obligatorio()] },
      capacidad: { type: "integer" },
      edificio: { $ref: "#/definitions/Edificio" },
    },
    Edificio: { nombre: { type: "string", _validar: [validador.obligatorio()] } },
  };

  it("keeps valid fields, drops readOnly ones", () => {
    expect(validar({ id: 9, nombre: "A", capacidad: 30, edificio: { nombre: "E" } }, modelos.Aula!, modelos)).toEqual({ ok: true, datos: { nombre: "A", capacidad: 30, edificio: { nombre: "E" } } });
  });

  it("collects every error per field, nested ones keyed by their path", () => {
    expect(validar({ capacidad: 2.5, edificio: {}, color: 1, piso: 2 }, modelos.Aula!, modelos)).toEqual({
      ok: false,
      detalle: {
        campos_no_permitidos: ["Se encontraron campos no permitidos: color, piso."],
        nombre: ["El campo 'nombre' es obligatoio."],
        capacidad: ["El campo 'capacidad' debe ser de tipo integer. Se recibió '2.5'."],
        "edificio.nombre": ["El campo 'edificio.nombre' es obligatoio."],
      },
    });
    expect(validar({ nombre: "A", edificio: "Central" }, modelos.Aula!, modelos)).toMatchObject({ ok: false, detalle: { edificio: ["El campo 'edificio' debe ser un objeto Edificio. Se recibió 'Central'."] } });
  });

  it("treats inherited property names as unknown fields", () => {
    const r = validar(JSON.parse('{"__proto__": {"x": 1}, "constructor": 1, "nombre": "A"}'), modelos.Aula!, modelos);
    expect(r).toEqual({ ok: false, detalle: { campos_no_permitidos: ["Se encontraron campos no permitidos: __proto__, constructor."] } });
  });

  it("is a zod schema whose issues carry the field and the SIU message", () => {
    const r = esquemaDeCuerpo(modelos.Aula!, modelos).safeParse({ nombre: "" });
    expect(r.success).toBe(false);
    expect(r.error?.issues).toEqual([expect.objectContaining({ path: ["nombre"], message: "El campo 'nombre' es obligatoio." })]);
  });
});
