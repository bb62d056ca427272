/**
 * The doc-comment grammar of a service (the seed's, which routes by the comment's first line):
 *
 *   /**
 *    * GET /aulas-uni/{id_aula}
 *    * @summary Aula {id_aula}
 *    * @notes Texto libre, puede seguir
 *    *        en varias líneas (<br> y <b>negrita</b> permitidos).
 *    * @param_query $order string (defecto: +nombre) [nombre, estado] Orden
 *    * @param_body $aula Aula_uni [required] Datos del aula
 *    * @responses 200 array {"$ref":"Aula_uni"} Aulas
 *    *\/
 *
 * Unlike the original (which splits on every `@`), a tag starts only at the beginning of a line, so an
 * `@` inside text is text; a line that does not start with a tag continues the previous tag. Anything
 * malformed is an error with its line, so the build can stop and say what is wrong.
 */
import { METODOS, type DocServicio, type Metodo, type ParamBody, type ParamQuery, type Respuesta } from "./tipos.js";
import { parsearParamQuery, parsearRespuesta } from "./tags.js";
import { parsearFiltro } from "../filtros.js";
import { parsearLimite, parsearOrden, parsearPagina } from "../consulta.js";

export interface ErrorDoc {
  linea: number;
  mensaje: string;
}

export type ResultadoDoc = { ok: true; doc: DocServicio } | { ok: false; errores: ErrorDoc[] };

export const TAGS = ["summary", "notes", "param_query", "param_body", "responses"] as const;

interface Linea {
  numero: number;
  texto: string;
}

/** The comment's text lines without `/**`, `*\/` and the leading `*`, keeping their line numbers. */
export function lineasDeComentario(comentario: string, primeraLinea: number): Linea[] {
  return comentario.split(/\r?\n/).map((crudo, i) => {
    const texto = crudo
      .replace(/^\s*\/\*\*/, "")
      .replace(/\*\/\s*$/, "")
      .replace(/^\s*\*(?!\/)/, "")
      .trim();
    return { numero: primeraLinea + i, texto };
  });
}

const SEGMENTO = "[a-z0-9]+(?:-[a-z0-9]+)*";
const RUTA = new RegExp(`^/(${SEGMENTO})(?:/\\{(\\w+)\\}(?:/(${SEGMENTO}))?)?$`);

export function parsearComentario(comentario: string, primeraLinea: number): ResultadoDoc {
  const lineas = lineasDeComentario(comentario, primeraLinea).filter((l) => l.texto !== "");
  const errores: ErrorDoc[] = [];
  const primera = lineas[0];
  if (!primera) return { ok: false, errores: [{ linea: primeraLinea, mensaje: "empty doc comment: the first line must be `<METHOD> /<collection>[/{<id_name>}[/<sub_collection>]]`" }] };
  const ruta = parsearRuta(primera.texto);
  if (typeof ruta === "string") errores.push({ linea: primera.numero, mensaje: ruta });

  // Group the remaining lines into tags (a tag runs until the next line that starts with `@`).
  const tags: { nombre: string; valor: string; linea: number }[] = [];
  for (const l of lineas.slice(1)) {
    const m = /^@(\w+)(?:\s+(.*))?$/.exec(l.texto);
    if (m) tags.push({ nombre: m[1]!, valor: (m[2] ?? "").trim(), linea: l.numero });
    else if (tags.length > 0) tags[tags.length - 1]!.valor += ` ${l.texto}`;
    else errores.push({ linea: l.numero, mensaje: `text outside a tag: "${l.texto}" (put descriptions under @notes or @summary)` });
  }

  let resumen: string | undefined;
  let notas: string | undefined;
  let cuerpo: ParamBody | undefined;
  const query: ParamQuery[] = [];
  const respuestas: Respuesta[] = [];
  for (const tag of tags) {
    const fallar = (mensaje: string) => errores.push({ linea: tag.linea, mensaje: `@${tag.nombre}: ${mensaje}` });
    switch (tag.nombre) {
      case "summary":
        if (resumen !== undefined) fallar("appears twice");
        resumen = tag.valor;
        break;
      case "notes":
        if (notas !== undefined) fallar("appears twice (continue the text on the next lines instead)");
        notas = tag.valor;
        break;
      case "param_body": {
        if (cuerpo) fallar("appears twice: a service takes one body");
        const r = parsearParamBody(tag.valor);
        if (typeof r === "string") fallar(r);
        else cuerpo = r;
        break;
      }
      case "param_query": {
        const r = parsearParamQuery(tag.valor);
        const problema = typeof r === "string" ? r : problemaDeQuery(r);
        if (problema) fallar(problema);
        else if (typeof r !== "string" && query.some((q) => q.nombre === r.nombre)) fallar(`parameter $${r.nombre} is declared twice`);
        else if (typeof r !== "string") query.push(r);
        break;
      }
      case "responses": {
        const r = parsearRespuesta(tag.valor);
        if (typeof r === "string") fallar(r);
        else if (respuestas.some((x) => x.estado === r.estado)) fallar(`status ${r.estado} is documented twice`);
        else respuestas.push(r);
        break;
      }
      default:
        errores.push({ linea: tag.linea, mensaje: `unknown tag @${tag.nombre} (known: ${TAGS.map((t) => "@" + t).join(", ")})` });
    }
  }
  if (typeof ruta !== "string") {
    if (cuerpo && (ruta.metodo === "GET" || ruta.metodo === "DELETE")) {
      errores.push({ linea: primera.numero, mensaje: `${ruta.metodo} services take no body, but @param_body is declared` });
    }
    for (const marca of (resumen ?? "").match(/\{(\w+)\}/g) ?? []) {
      if (!ruta.ids.includes(marca.slice(1, -1))) {
        errores.push({ linea: primera.numero, mensaje: `@summary: ${marca} is not a path parameter of ${ruta.ruta}` });
      }
    }
  }
  if (errores.length > 0 || typeof ruta === "string") return { ok: false, errores };
  return { ok: true, doc: { ...ruta, resumen: resumen ?? "", notas: notas ?? "", cuerpo, query, respuestas } };
}

type Ruta = Pick<DocServicio, "metodo" | "ruta" | "coleccion" | "ids" | "subcoleccion">;

export function parsearRuta(texto: string): Ruta | string {
  const esperado = "the first line must be `<METHOD> /<collection>[/{<id_name>}[/<sub_collection>]]`";
  const m = /^(\S+)\s+(\S+)$/.exec(texto);
  if (!m) return `${esperado}, found "${texto}"`;
  const metodo = m[1] as Metodo;
  if (!METODOS.includes(metodo)) return `unknown method "${m[1]}" on the first line (use ${METODOS.join(", ")})`;
  const r = RUTA.exec(m[2]!);
  if (!r) return `${esperado} (lowercase words joined by "-", ids in braces), found "${m[2]}"`;
  return { metodo, ruta: m[2]!, coleccion: r[1]!, ids: r[2] ? [r[2]] : [], ...(r[3] ? { subcoleccion: r[3] } : {}) };
}

/** `$<name> <Model> [required] <description>`; the `[required]` marker is optional. */
export function parsearParamBody(valor: string): ParamBody | string {
  const m = /^\$(\w+)\s+(\w+)(?:\s+\[([^\]]*)\])?(?:\s+(.*))?$/.exec(valor);
  if (!m) {
    if (!valor.startsWith("$")) return `must start with $<name>, found "${valor}"`;
    return `expected "$<name> <Model> [required] <description>", found "${valor}"`;
  }
  if (m[3] !== undefined && m[3].trim() !== "required") return `unknown marker [${m[3]}] (only [required] is allowed)`;
  return { nombre: m[1]!, modelo: m[2]!, requerido: m[3] !== undefined, descripcion: (m[4] ?? "").trim() };
}

/** What is wrong with a query parameter's declaration given its fixed meaning (order/limit/page/filter). */
export function problemaDeQuery(p: ParamQuery): string | undefined {
  if (p.nombre === "order") {
    if (!p.terminos) return "$order needs the fields it may order by, e.g. [nombre, estado]";
    if (p.defecto === undefined) return undefined;
    const r = parsearOrden(p.defecto, p.terminos);
    return r.ok ? undefined : `(defecto: ${p.defecto}) is not a valid order: ${r.mensaje}`;
  }
  if (p.defecto === undefined) return undefined;
  const r = p.nombre === "limit" ? parsearLimite(p.defecto) : p.nombre === "page" ? parsearPagina(p.defecto) : undefined;
  if (r && !r.ok) return `(defecto: ${p.defecto}) is not valid: ${r.mensaje}`;
  if (r) return r.valor === undefined ? `(defecto: ${p.defecto}) is not valid: expected a number` : undefined;
  const f = parsearFiltro(p.nombre, p.defecto);
  return f.ok ? undefined : `(defecto: ${p.defecto}) is not a valid filter (<condicion>;<valor>): ${f.mensaje}`;
}
