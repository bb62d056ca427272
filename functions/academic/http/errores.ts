/**
 * SIU's envelope for every failure under `/rest/` that does not carry its own body: unknown paths,
 * framework errors and unexpected exceptions. An unexpected exception answers 500 `Error Interno en
 * el servidor` without its message (the original appended the message, leaking internals); the
 * platform logs it with its stack. Loaded for its side effect by every academic HTTP module.
 */
import { registerRenderer } from "../../platform/http/app.js";
import { registerZodTranslator } from "../../platform/http/validation.js";
import { ERROR_INTERNO, rest_error, sobre } from "../domain/errores.js";

export const RECURSO_INEXISTENTE = "No se encuentra el recurso solicitado";

registerRenderer("siu", {
  render(status, message) {
    const descripcion = status >= 500 ? ERROR_INTERNO : status === 404 ? RECURSO_INEXISTENTE : message;
    return { status, body: sobre(status, descripcion) };
  },
});

registerZodTranslator("siu", (err) => new rest_error(400, err.issues[0]?.message ?? "Pedido inválido"));
