/**
 * The machine-readable description of a release: a Swagger 2.0 document (what SIU's library 2.0.x
 * generates) built from the parsed doc comments and the resources' models, valid for the tools
 * integrators run first (swagger-parser, Swagger UI, code generators, API gateways).
 *
 * Resources may keep the 3.16 authoring forms the seed shows — a bare model name (`Edificio_uni`)
 * and `type: "date"` — or the 3.22 ones (`#/definitions/Edificio_uni`, `string` with a date
 * validator). Both releases' documents write them as Swagger 2.0 does: `#/definitions/<Model>`
 * references, and `type: string` with `format: date` (the library's own 3.x mapping of `date`).
 * operationIds come from the method and the path (`get_docentes_uni_by_id_docente`), so they are
 * unique, stable when files move, and readable as generated client method names. Descriptions keep
 * the comments' allowed markup and escape any other `<…>`, which Swagger UI would drop as HTML.
 */
import { nombreDeModelo, tipoSwagger, type CampoModelo, type Modelos } from "./modelos.js";
import { BASES, PARAMETROS_ESPECIALES, type Metodo, type ParamQuery, type Recurso, type Release, type Servicio } from "./doc/tipos.js";
import { lineaDeEstado } from "./errores.js";
import { descripcionSwagger } from "./doc/marcado.js";

type Json = Record<string, unknown>;

const refDe = (modelo: string) => ({ $ref: `#/definitions/${nombreDeModelo(modelo)}` });

export function propiedad(campo: CampoModelo): Json {
  if (campo.$ref) return refDe(campo.$ref);
  const out: Json = {};
  for (const [k, v] of Object.entries(campo)) if (!k.startsWith("_") && k !== "type" && k !== "items") out[k] = v;
  if (campo.description !== undefined) out.description = descripcionSwagger(campo.description);
  const esFecha = (campo._validar ?? []).some((r) => r.regla === "fecha") && (campo.type === undefined || campo.type === "string");
  Object.assign(out, tipoSwagger(esFecha ? "date" : campo.type ?? "string"));
  if (campo.format) out.format = campo.format;
  if (campo.items) out.items = campo.items.$ref ? refDe(campo.items.$ref) : tipoSwagger(campo.items.type ?? "string");
  return out;
}

export function definiciones(modelos: Modelos): Json {
  const defs: Json = {};
  for (const nombre of Object.keys(modelos).sort()) {
    const campos = modelos[nombre]!;
    const requeridos = Object.keys(campos).filter((c) => (campos[c]!._validar ?? []).some((r) => r.regla === "obligatorio"));
    defs[nombre] = {
      type: "object",
      ...(requeridos.length > 0 ? { required: requeridos } : {}),
      properties: Object.fromEntries(Object.entries(campos).map(([c, def]) => [c, propiedad(def)])),
    };
  }
  return defs;
}

/** Sentences joined: one that does not end in punctuation gets a full stop before the next. */
const frases = (...partes: string[]) =>
  partes
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p, i, todas) => (i < todas.length - 1 && !/[.!?:;]$/.test(p) ? `${p}.` : p))
    .join(" ");

function parametroQuery(p: ParamQuery): Json {
  const numerico = p.nombre === "limit" || p.nombre === "page";
  const tipo = numerico ? { type: "integer" } : tipoSwagger(p.tipo === undefined || p.tipo === "filter" ? "string" : p.tipo);
  const orden = p.nombre === "order" && p.terminos ? `Campos: ${p.terminos.join(", ")} (prefijo + ascendente, - descendente).` : "";
  // In backticks: Swagger UI shows a code span literally, and a docstring reads it as written.
  const filtro = (PARAMETROS_ESPECIALES as readonly string[]).includes(p.nombre) ? "" : "Formato: `<condicion>;<valor>`.";
  return {
    name: p.nombre,
    in: "query",
    ...tipo,
    description: frases(descripcionSwagger(p.descripcion), filtro, orden),
    required: false,
    ...(p.defecto !== undefined ? { default: numerico ? Number(p.defecto) : p.defecto } : {}),
  };
}

/** `GET /docentes-uni/{id_docente}/comisiones` → `get_docentes_uni_by_id_docente_comisiones`. */
export function idDeOperacion(metodo: Metodo, ruta: string): string {
  const partes = ruta
    .split("/")
    .filter(Boolean)
    .map((s) => (s.startsWith("{") ? `by_${s.slice(1, -1)}` : s.replace(/-/g, "_")));
  return [metodo.toLowerCase(), ...partes].join("_");
}

export function operacion(recurso: Recurso, s: Servicio): Json {
  const parametros: Json[] = [
    ...s.ids.map((id) => ({ name: id, in: "path", description: `ID del recurso ${recurso.segmento}`, type: "string", required: true })),
    ...s.query.map(parametroQuery),
  ];
  if (s.cuerpo) {
    parametros.push({ name: s.cuerpo.nombre, in: "body", description: descripcionSwagger(s.cuerpo.descripcion), required: s.cuerpo.requerido, schema: refDe(s.cuerpo.modelo) });
  }
  const respuestas: Json = {};
  for (const r of s.respuestas) {
    const esquema = r.esquema && (r.esquema.arreglo ? { type: "array", items: refDe(r.esquema.modelo) } : refDe(r.esquema.modelo));
    respuestas[String(r.estado)] = { description: descripcionSwagger(r.descripcion || (lineaDeEstado(r.estado) ?? String(r.estado))), ...(esquema ? { schema: esquema } : {}) };
  }
  return {
    tags: [recurso.segmento],
    summary: s.resumen,
    description: descripcionSwagger(s.notas),
    operationId: idDeOperacion(s.metodo, s.ruta),
    produces: ["application/json"],
    parameters: parametros,
    responses: Object.keys(respuestas).length > 0 ? respuestas : { default: { description: "Respuesta del servicio" } },
  };
}

const ORDEN_METODOS = ["get", "put", "post", "delete"];

export function documentoSwagger(recursos: readonly Recurso[], modelos: Modelos, release: Release, esquema: "http" | "https" = "https"): Json {
  const paths: Record<string, Json> = {};
  for (const recurso of recursos) {
    for (const s of recurso.servicios) (paths[s.ruta] ??= {})[s.metodo.toLowerCase()] = operacion(recurso, s);
  }
  const ordenados = Object.fromEntries(
    Object.keys(paths)
      .sort()
      .map((ruta) => [ruta, Object.fromEntries(ORDEN_METODOS.filter((m) => paths[ruta]![m]).map((m) => [m, paths[ruta]![m]]))]),
  );
  return {
    swagger: "2.0",
    info: { title: `API REST académica (SIU-Guaraní ${release})`, version: release, description: "Recursos REST del sistema de gestión académica y sus personalizaciones." },
    basePath: BASES[release],
    schemes: [esquema],
    produces: ["application/json"],
    securityDefinitions: { basic: { type: "basic" }, api_key: { type: "apiKey", in: "query", name: "api_key" } },
    security: [{ basic: [] }, { api_key: [] }],
    tags: recursos.map((r) => ({ name: r.segmento, description: descripcionSwagger(r.descripcion) })),
    paths: ordenados,
    definitions: definiciones(modelos),
  };
}
