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

describe("the rest of the library's rules, with its messages", () => {
  it.each([
    [validador.entero(), ["6", "05", 7], ["-5", " 5", "1.5", 2.5]],
    [validador.numerico({ min: -10 }), ["-5", "1e3", " 5", 2.5], ["abc", "-11", "0x1A"]],
    [validador.alpha(), ["abcXYZ"], ["ab1", "ñandú"]],
    [validador.alphanum(), ["ab12"], ["ab-12"]],
    [validador.hora(), ["23:59:59"], ["24:00:00", "12:60:00"]],
    [validador.hora("H:i"), ["08:30"], ["08:30:00"]],
    [validador.mail(), ["ana@example.edu"], ["ana@", "no es mail", `${"a".repeat(120)}@example.edu`]],
    [validador.custom("^[A-Z]{3}-\\d+"), ["ABC-12"], ["abc-12"]],
    [validador.custom("\\d{2}"), ["x12"], ["12x"]],
    [validador.arreglo({ max: 2 }), [["a"], ["a", "b"]], [["a", "b", "c"], "a"]],
    [validador.texto(), ["cualquier cosa"], []],
  ] as const)("%o", (regla, buenos, malos) => {
    for (const v of buenos) expect(aplicarRegla(regla, "c", v)).toBeUndefined();
    for (const v of malos) expect(aplicarRegla(regla, "c", v)).toMatch(/^El campo 'c' (debe ser|no es válido)/);
  });

  it("uses the original's message templates and parameter suffix", () => {
    expect(aplicarRegla(validador.numerico({ min: 1, max: 5 }), "n", "9")).toBe("El campo 'n' debe ser un número decimal. Se recibió '9'. Parámetros: min, max => 1, 5");
    expect(aplicarRegla(validador.alpha(), "n", "a1")).toBe("El campo 'n' debe ser de texto a-zA-Z. Se recibió 'a1'.");
    expect(aplicarRegla(validador.alphanum(), "n", "a-1")).toBe("El campo 'n' debe ser alfanumérico. Se recibió 'a-1'.");
    expect(aplicarRegla(validador.hora(), "h", "25:00:00")).toBe("El campo 'h' debe ser una hora. Se recibió '25:00:00'.");
    expect(aplicarRegla(validador.mail(), "m", "x")).toBe("El campo 'm' debe ser un mail. Se recibió 'x'.");
    expect(aplicarRegla(validador.custom("^\\d+"), "c", "x")).toBe("El campo 'c' no es válido. Se recibió 'x'. Parámetros: format => ^\\d+");
    expect(aplicarRegla(validador.arreglo({ min: 1, max: 2 }), "a", [1, 2, 3])).toBe("El campo 'a' debe ser un arreglo. Se recibió '[1,2,3]'. Parámetros: min, max => 1, 2");
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
        capacidad: ["El campo 'capacidad' debe ser un número entero. Se recibió '2.5'."],
        "edificio.nombre": ["El campo 'edificio.nombre' es obligatoio."],
      },
    });
    expect(validar({ nombre: "A", edificio: "Central" }, modelos.Aula!, modelos)).toMatchObject({ ok: false, detalle: { edificio: ["El campo 'edificio' debe ser un objeto Edificio. Se recibió 'Central'."] } });
  });

  it("accepts a digit string for an integer field, as the library's int rule does, and stores a number", () => {
    const modelo = { n: { type: "integer", _validar: [validador.entero({ min: 1, max: 9 })] }, x: { type: "number" } };
    expect(validar({ n: "6", x: "-2.5" }, modelo, {})).toEqual({ ok: true, datos: { n: 6, x: -2.5 } });
    expect(validar({ n: "-6", x: "dos" }, modelo, {})).toEqual({
      ok: false,
      detalle: {
        n: ["El campo 'n' debe ser un número entero. Se recibió '-6'.", "El campo 'n' debe ser un número entero. Se recibió '-6'. Parámetros: min, max => 1, 9"],
        x: ["El campo 'x' debe ser un número decimal. Se recibió 'dos'."],
      },
    });
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
