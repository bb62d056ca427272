/**
 * The machine-readable description of a release: Swagger 2.0 (what SIU's library 2.0.x generates),
 * built from the parsed doc comments and the resources' models.
 *
 * The two releases differ as the seed says: a model reference is `#/definitions/Edificio_uni` in 3.22
 * and `Edificio_uni` in 3.16 (everywhere in that release's document), and a date-validated text field
 * is `string` (+ `format: date`) in 3.22 and `date` in 3.16.
 */
import { nombreDeModelo, type CampoModelo, type Modelos } from "./modelos.js";
import { BASES, PARAMETROS_ESPECIALES, type ParamQuery, type Recurso, type Release, type Servicio } from "./doc/tipos.js";
import { lineaDeEstado } from "./errores.js";

type Json = Record<string, unknown>;

const refDe = (release: Release, modelo: string) => (release === "3.22" ? `#/definitions/${modelo}` : modelo);

export function propiedad(campo: CampoModelo, release: Release): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(campo)) if (!k.startsWith("_")) out[k] = v;
  if (campo.$ref) out.$ref = refDe(release, nombreDeModelo(campo.$ref));
  if (campo.items?.$ref) out.items = { ...campo.items, $ref: refDe(release, nombreDeModelo(campo.items.$ref)) };
  const esFecha = campo.type === "date" || (campo._validar ?? []).some((r) => r.regla === "fecha");
  if (esFecha && (campo.type === "string" || campo.type === "date" || campo.type === undefined)) {
    if (release === "3.16") out.type = "date";
    else Object.assign(out, { type: "string", format: "date" });
  }
  return out;
}

export function definiciones(modelos: Modelos, release: Release): Json {
  const defs: Json = {};
  for (const nombre of Object.keys(modelos).sort()) {
    const campos = modelos[nombre]!;
    const requeridos = Object.keys(campos).filter((c) => (campos[c]!._validar ?? []).some((r) => r.regla === "obligatorio"));
    defs[nombre] = {
      type: "object",
      ...(requeridos.length > 0 ? { required: requeridos } : {}),
      properties: Object.fromEntries(Object.entries(campos).map(([c, def]) => [c, propiedad(def, release)])),
    };
  }
  return defs;
}

function parametroQuery(p: ParamQuery, release: Release): Json {
  const tipo = p.tipo === "filter" || p.tipo === undefined ? "string" : p.tipo === "date" && release === "3.22" ? "string" : p.tipo;
  const extra = p.nombre === "order" && p.terminos ? ` Campos: ${p.terminos.join(", ")} (prefijo + ascendente, - descendente).` : "";
  const filtro = (PARAMETROS_ESPECIALES as readonly string[]).includes(p.nombre) ? "" : " Formato: <condicion>;<valor>.";
  return {
    name: p.nombre,
    in: "query",
    type: tipo,
    description: `${p.descripcion}${filtro}${extra}`.trim(),
    required: false,
    ...(p.defecto !== undefined ? { default: p.nombre === "limit" || p.nombre === "page" ? Number(p.defecto) : p.defecto } : {}),
  };
}

export function operacion(recurso: Recurso, s: Servicio, release: Release): Json {
  const parametros: Json[] = [
    ...s.ids.map((id) => ({ name: id, in: "path", description: `ID del recurso ${recurso.segmento}`, type: "string", required: true })),
    ...s.query.map((p) => parametroQuery(p, release)),
  ];
  if (s.cuerpo) {
    parametros.push({ name: s.cuerpo.nombre, in: "body", description: s.cuerpo.descripcion, required: s.cuerpo.requerido, schema: { $ref: refDe(release, s.cuerpo.modelo) } });
  }
  const respuestas: Json = {};
  for (const r of s.respuestas) {
    const esquema = r.esquema && (r.esquema.arreglo ? { type: "array", items: { $ref: refDe(release, r.esquema.modelo) } } : { $ref: refDe(release, r.esquema.modelo) });
    respuestas[String(r.estado)] = { description: r.descripcion || (lineaDeEstado(r.estado) ?? String(r.estado)), ...(esquema ? { schema: esquema } : {}) };
  }
  return {
    tags: [recurso.segmento],
    summary: s.resumen,
    description: s.notas,
    operationId: `${s.origen.archivo.replace(/\.ts$/, "")}:${s.handler}`,
    produces: ["application/json"],
    parameters: parametros,
    responses: Object.keys(respuestas).length > 0 ? respuestas : { default: { description: "Respuesta del servicio" } },
  };
}

const ORDEN_METODOS = ["get", "put", "post", "delete"];

export function documentoSwagger(recursos: readonly Recurso[], modelos: Modelos, release: Release, esquema: "http" | "https" = "https"): Json {
  const paths: Record<string, Json> = {};
  for (const recurso of recursos) {
    for (const s of recurso.servicios) (paths[s.ruta] ??= {})[s.metodo.toLowerCase()] = operacion(recurso, s, release);
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
    tags: recursos.map((r) => ({ name: r.segmento, description: r.descripcion })),
    paths: ordenados,
    definitions: definiciones(modelos, release),
  };
}
