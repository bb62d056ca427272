/**
 * SIU's envelope for every failure under `/rest/` that does not carry its own body: unknown paths,
 * framework errors, bodies over the limit (one 413 that states it) and unexpected exceptions. An unexpected exception answers 500 `Error Interno en
 * el servidor` without its message (the original appended the message, leaking internals); the
 * platform logs it with its stack. Loaded for its side effect by every academic HTTP module.
 */
import { registerRenderer } from "../../platform/http/app.js";
import { registerZodTranslator } from "../../platform/http/validation.js";
import { ERROR_INTERNO, LIMITE_CUERPO_BYTES, MENSAJE_DEMASIADO_GRANDE, rest_error, sobre } from "../domain/errores.js";
import { releaseDe } from "../domain/doc/tipos.js";

export const RECURSO_INEXISTENTE = "No se encuentra el recurso solicitado";

registerRenderer("siu", {
  render(status, message) {
    const descripcion = status >= 500 ? ERROR_INTERNO : status === 404 ? RECURSO_INEXISTENTE : status === 413 ? MENSAJE_DEMASIADO_GRANDE : message;
    return { status, body: sobre(status, descripcion) };
  },
  // Every answer of a release says which one it is, errors included, as the library's do.
  headers: (path) => ({ "API-Version": releaseDe(path) }),
  maxBodyBytes: LIMITE_CUERPO_BYTES,
});

registerZodTranslator("siu", (err) => new rest_error(400, err.issues[0]?.message ?? "Pedido inválido"));
