/**
 * How list values compare, close to what the original's PostgreSQL does: text by a Spanish collation
 * (case-insensitive order, accents after the plain letter), numbers numerically, `false < true`.
 * Missing values (`null`/`undefined`) sort last ascending and first descending (PostgreSQL's default).
 */
const collator = new Intl.Collator("es", { sensitivity: "variant" });

export const faltante = (v: unknown) => v === null || v === undefined;

export function comparar(a: unknown, b: unknown): number {
  if (faltante(a) || faltante(b)) return faltante(a) === faltante(b) ? 0 : faltante(a) ? 1 : -1;
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (typeof a === "boolean" && typeof b === "boolean") return Number(a) - Number(b);
  return collator.compare(texto(a), texto(b));
}

export function texto(v: unknown): string {
  return typeof v === "object" && v !== null ? JSON.stringify(v) : String(v);
}

/**
 * A stored value against a filter value (always text on the wire, as in the original): numeric when
 * the stored value is a number and the text is numeric, boolean for booleans, text otherwise.
 */
export function compararConTexto(valor: unknown, filtro: string): number {
  if (typeof valor === "number" && filtro.trim() !== "" && Number.isFinite(Number(filtro))) return valor - Number(filtro);
  if (typeof valor === "boolean") {
    const b = ["true", "t", "1", "si", "sí", "s"].includes(filtro.toLowerCase());
    return Number(valor) - Number(b);
  }
  return collator.compare(texto(valor), filtro);
}

/** Equality is exact (SQL `=` on text compares code points, not collation order). */
export function igualATexto(valor: unknown, filtro: string): boolean {
  if (typeof valor === "string") return valor === filtro;
  return compararConTexto(valor, filtro) === 0;
}
