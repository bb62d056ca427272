/**
 * SIU's error envelope (`rest_error::configurar_respuesta`):
 * `{"error": <status>, "mensaje": "<status line>", "descripcion": "<why>", "detalle": <only if any>}`.
 *
 * `rest_error` extends the platform's `ApiError`, so the one error policy renders it as it is.
 * Unlike the original, an unexpected exception never shows its message (see `http/errores.ts`).
 */
import { ApiError } from "../../platform/http/errors.js";

const LINEAS_DE_ESTADO: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  413: "Request Entity Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Entity",
  500: "Internal Server Error",
  501: "Not Implemented",
  503: "Service Unavailable",
};

/** `404` → `"404 Not Found"`; `null` for codes outside the table, as in the original. */
export function lineaDeEstado(status: number): string | null {
  const texto = LINEAS_DE_ESTADO[status];
  return texto ? `${status} ${texto}` : null;
}

export interface Sobre {
  error: number;
  mensaje: string | null;
  descripcion: string;
  detalle?: unknown;
}

export function sobre(status: number, descripcion: string, detalle?: unknown): Sobre {
  const vacio =
    detalle === undefined ||
    detalle === null ||
    (typeof detalle === "object" && Object.keys(detalle as object).length === 0);
  return { error: status, mensaje: lineaDeEstado(status), descripcion, ...(vacio ? {} : { detalle }) };
}

/** `throw new rest_error(422, "Mensaje propio", { campo: ["malo"] })`, as in SIU's library. */
export class rest_error extends ApiError {
  constructor(status: number, descripcion: string, detalle?: unknown, headers: Record<string, string> = {}) {
    if (status < 400) throw new Error("Los errores HTTP son tipicamente codigo 400 o 500");
    super(status, sobre(status, descripcion, detalle), headers);
    this.name = "rest_error";
  }
}

/**
 * What a disabled inherited service throws: inherited services cannot be removed, only made to fail
 * with 500 and a message saying the service is unavailable.
 */
export class servicio_no_disponible extends rest_error {
  constructor(servicio?: string) {
    super(500, servicio ? `El servicio ${servicio} no está disponible` : "El servicio no está disponible");
    this.name = "servicio_no_disponible";
  }
}

/**
 * The largest request body the academic interface accepts: a record must fit one DynamoDB item
 * (400 KB with its keys), so every route refuses more with the same 413 that states the limit.
 */
export const LIMITE_CUERPO_BYTES = 256 * 1024;
export const MENSAJE_DEMASIADO_GRANDE = `El cuerpo del pedido excede el tamaño máximo de ${LIMITE_CUERPO_BYTES} bytes (256 KiB)`;
export const demasiadoGrande = () => new rest_error(413, MENSAJE_DEMASIADO_GRANDE);

export const NO_ENCONTRADO = "No se pudo encontrar el recurso en el servidor";
export const ERROR_INTERNO = "Error Interno en el servidor";

export const noEncontrado = (descripcion = NO_ENCONTRADO, detalle?: unknown) => new rest_error(404, descripcion, detalle);

/** 400 for a query parameter, in the original's wording: `Parámetro 'x' invalido. <why>`. */
export const parametroInvalido = (nombre: string, motivo: string) =>
  new rest_error(400, mensajeParametroInvalido(nombre, motivo));

export const mensajeParametroInvalido = (nombre: string, motivo: string) => `Parámetro '${nombre}' invalido. ${motivo}`;
