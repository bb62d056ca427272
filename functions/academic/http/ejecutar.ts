/**
 * Serving one service: authenticate, check the permissions file, validate path values, query and body
 * with zod, then run the handler of a fresh resource instance inside the request context and turn what
 * it built into the HTTP response.
 */
import type { Context } from "hono";
import * as z from "zod/mini";
import "../../platform/zod-messages.js";
import { log } from "../../platform/log.js";
import { rest_error, mensajeParametroInvalido } from "../domain/errores.js";
import { esquemaDeConsulta } from "../domain/consulta.js";
import { detalleDeIssues, esquemaDeCuerpo } from "../domain/validador.js";
import type { Recurso, Release, Servicio } from "../domain/doc/tipos.js";
import type { Registro } from "../domain/modelos.js";
import { autenticarPedido, autorizar } from "./auth.js";
import { conContexto, resumenCon, type Contexto } from "../runtime/contexto.js";
import { Respuesta } from "../runtime/respuesta.js";
import { modelosDeRecurso, type RegistroGenerado } from "../runtime/registro.js";

const valorDeRuta = (nombre: string) =>
  z.string().check(
    z.minLength(1, mensajeParametroInvalido(nombre, "No puede ser vacío")),
    z.maxLength(128, mensajeParametroInvalido(nombre, "Es demasiado largo (máximo 128 caracteres)")),
  );

function primerMensaje(err: z.core.$ZodError): string {
  return err.issues[0]?.message ?? "Pedido inválido";
}

async function leerCuerpo(c: Context, servicio: Servicio, registro: RegistroGenerado, segmento: string): Promise<Registro | undefined> {
  const declarado = servicio.cuerpo;
  if (!declarado) return undefined;
  const crudo = await c.req.text();
  if (crudo.trim() === "") {
    if (declarado.requerido) throw new rest_error(400, `Se requiere el cuerpo del pedido ($${declarado.nombre}, modelo ${declarado.modelo})`);
    return undefined;
  }
  let json: unknown;
  try {
    json = JSON.parse(crudo);
  } catch {
    throw new rest_error(400, `No se pudo decodificar el mensaje '${crudo.length > 200 ? `${crudo.slice(0, 200)}…` : crudo}'`);
  }
  if (json === null || typeof json !== "object" || Array.isArray(json)) {
    throw new rest_error(400, `El cuerpo debe ser un objeto JSON del modelo ${declarado.modelo}`);
  }
  const modelos = modelosDeRecurso(registro, segmento);
  const r = esquemaDeCuerpo(modelos[declarado.modelo] ?? {}, modelos).safeParse(json);
  if (!r.success) throw new rest_error(400, "Error en la validación del recurso", detalleDeIssues(r.error.issues));
  return r.data;
}

export async function ejecutarServicio(c: Context, registro: RegistroGenerado, recurso: Recurso, servicio: Servicio, release: Release): Promise<Response> {
  const usuario = autenticarPedido(c, registro);
  autorizar(usuario, registro, servicio);
  const rutaParams = z.object(Object.fromEntries(servicio.ids.map((id) => [id, valorDeRuta(id)]))).safeParse(c.req.param());
  if (!rutaParams.success) throw new rest_error(400, primerMensaje(rutaParams.error));
  const query = c.req.query();
  const consulta = esquemaDeConsulta(servicio.query).safeParse(query);
  if (!consulta.success) throw new rest_error(400, primerMensaje(consulta.error));
  const cuerpo = await leerCuerpo(c, servicio, registro, recurso.segmento);

  const params = rutaParams.data as Record<string, string>;
  const ctx: Contexto = { registro, servicio, release, usuario, params, query, consulta: consulta.data, cuerpo, respuesta: new Respuesta() };
  log.info("academic service", { servicio: `${servicio.metodo} ${servicio.ruta}`, resumen: resumenCon(servicio.resumen, params), usuario: usuario.usuario, release });
  const Clase = registro.clases[recurso.segmento];
  if (!Clase) throw new Error(`resource class for ${recurso.segmento} is missing from the registry`);
  await conContexto(ctx, async () => {
    const instancia = new Clase() as Record<string, unknown>;
    const handler = instancia[servicio.handler];
    if (typeof handler !== "function") throw new Error(`${recurso.clase}.${servicio.handler} is not a method`);
    await (handler as (...args: string[]) => unknown).apply(instancia, servicio.ids.map((id) => params[id]!));
  });
  return ctx.respuesta.aResponse(servicio.metodo, { "API-Version": release });
}
