/**
 * The response a handler builds (SIU's `rest::response()`): `get`, `get_list`, `post`, `put`,
 * `delete`, `set_data`, `set_status`, `add_headers`, `not_found`, `error_negocio`.
 *
 * A handler that sends nothing answers 201 with an empty body for POST (a creation happened; this is
 * the 3.16 POST /aulas-uni) and 204 for other methods — the original crashed with a PHP error instead.
 */
import { noEncontrado, rest_error } from "../domain/errores.js";
import type { Metodo } from "../domain/doc/tipos.js";

export class Respuesta {
  private data: unknown = undefined;
  private status: number | undefined;
  readonly headers: Record<string, string> = {};

  /** One element; `false`/`undefined`/`null` → 404 envelope. */
  get(data: unknown): this {
    if (data === false || data === undefined || data === null) throw noEncontrado();
    return this.con(200, data);
  }

  get_list(data: readonly unknown[]): this {
    return this.con(200, data);
  }

  /** A creation response: 201 with the given body. */
  post(data: unknown): this {
    return this.con(201, data);
  }

  /** 204 without data, 200 with data. */
  put(data?: unknown): this {
    return data === undefined ? this.con(204, undefined) : this.con(200, data);
  }

  /** 204, empty body. */
  delete(): this {
    return this.con(204, undefined);
  }

  set_data(data: unknown): this {
    this.data = data;
    return this;
  }

  set_status(status: number): this {
    this.status = status;
    return this;
  }

  add_headers(headers: Record<string, string>): this {
    Object.assign(this.headers, headers);
    return this;
  }

  get_data(): unknown {
    return this.data;
  }

  get_status(): number | undefined {
    return this.status;
  }

  /** Throws the 404 envelope (`detalle` = `errores` when given). */
  not_found(mensaje?: string, errores?: unknown): never {
    throw noEncontrado(mensaje || undefined, errores);
  }

  /** A business-rule failure: the envelope with the given status (400 by default) and detail. */
  error_negocio(errores: unknown, status = 400): never {
    throw new rest_error(status, "Error de negocio", errores);
  }

  private con(status: number, data: unknown): this {
    this.status = status;
    this.data = data;
    return this;
  }

  /** The HTTP response this describes. */
  aResponse(metodo: Metodo, base: Record<string, string>): Response {
    const status = this.status ?? (this.data === undefined ? (metodo === "POST" ? 201 : 204) : 200);
    const headers = { ...base, ...this.headers };
    // Empty answers keep the library's JSON content type rather than a runtime's text/plain default.
    const json = { ...headers, "Content-Type": "application/json" };
    if (status === 204 || status === 304 || this.data === undefined) return new Response(null, { status, headers: json });
    return new Response(JSON.stringify(this.data), { status, headers: json });
  }
}
