/**
 * Checks that need the modules loaded: the exported classes and handlers exist at run time, models are
 * well formed and every model a field, body or response names exists, and the permissions and users
 * files have the right shape. Permission entries are compared with the services (warnings only: a
 * service without an entry is denied, which may be intended).
 */
import { pathToFileURL } from "node:url";
import * as z from "zod/mini";
import "../../platform/zod-messages.js";
import { nombreDeModelo, referenciasDe, TIPOS_CAMPO, type Modelos } from "../domain/modelos.js";
import { esquemaRecursosUsuarios, fusionarPermisos, type RecursosUsuarios } from "../domain/permisos.js";
import { esquemaUsuarios } from "../domain/usuarios.js";
import { REGLAS } from "../domain/validador.js";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Recurso, Servicio } from "../domain/doc/tipos.js";
import type { Descubierto } from "./descubrir.js";
import type { ErrorBuild } from "./servicios.js";

const regla = z.looseObject({ regla: z.enum(REGLAS), formato: z.optional(z.string()) }).check(
  z.refine((r) => r.regla !== "custom" || esRegex(r.formato), { message: "custom needs a valid regular expression in formato" }),
);

function esRegex(formato: string | undefined): boolean {
  try {
    return formato !== undefined && new RegExp(`${formato}$`) instanceof RegExp;
  } catch {
    return false;
  }
}
const tipo = z.enum(TIPOS_CAMPO);
const campo = z.strictObject({
  type: z.optional(tipo),
  enum: z.optional(z.array(z.union([z.string(), z.number(), z.boolean()]))),
  format: z.optional(z.string()),
  description: z.optional(z.string()),
  readOnly: z.optional(z.boolean()),
  default: z.optional(z.unknown()),
  $ref: z.optional(z.string()),
  items: z.optional(z.strictObject({ type: z.optional(tipo), $ref: z.optional(z.string()) })),
  _validar: z.optional(z.array(regla)),
}).check(
  z.refine((c) => c.type !== "array" || c.items !== undefined, { message: 'an array field needs items ({ type } or { $ref })' }),
  z.refine((c) => c.$ref === undefined || c.type === undefined, { message: "a $ref field takes no type (the referenced model is its type)" }),
);
const esquemaModelos = z.record(z.string().check(z.regex(/^\w+$/)), z.record(z.string().check(z.regex(/^\w+$/)), campo));

const cargar = async (archivo: string) => (await import(/* @vite-ignore */ pathToFileURL(archivo).href)) as Record<string, unknown>;
/** `path: message` per issue; a bad record key reports what the key should look like. */
const mensajeZod = (e: z.core.$ZodError) =>
  e.issues
    .map((i) => {
      const interno = i.code === "invalid_key" ? i.issues[0]?.message : undefined;
      return `${i.path.join(".") || "(root)"}: ${interno ? `invalid key: expected ${interno}` : i.message}`;
    })
    .join("; ");

export interface Fuentes {
  /** The project root (service origins are relative to it). */
  proyecto: string;
  /** Resource segment → line of its `_get_modelos()`. */
  lineaModelos: Map<string, number>;
  /** Resource segment → the `campos` names of its `rest.consulta()` calls (its class chain's files). */
  calculados: Map<string, Set<string>>;
}

export async function verificarEnEjecucion(d: Descubierto, recursos: readonly Recurso[], { proyecto, lineaModelos, calculados }: Fuentes, errores: ErrorBuild[], avisos: string[]): Promise<void> {
  const modelos: Modelos = {};
  const propiosDe = new Map<string, Modelos>();
  for (const r of recursos) {
    const archivo = d.recursos.find((x) => x.segmento === r.segmento)!.archivo;
    const Clase = (await cargar(archivo))[r.clase] as (Function & { _get_modelos?: () => unknown }) | undefined;
    if (typeof Clase !== "function") {
      errores.push({ archivo, linea: 1, mensaje: `the module does not export class ${r.clase}` });
      continue;
    }
    for (const s of r.servicios) {
      if (typeof Clase.prototype[s.handler] !== "function") errores.push({ archivo, linea: s.origen.linea, mensaje: `${r.clase}.${s.handler} is not a method at run time` });
    }
    if (!Clase._get_modelos) continue;
    const propios = esquemaModelos.safeParse(Clase._get_modelos());
    if (!propios.success) errores.push({ archivo, linea: lineaModelos.get(r.segmento) ?? 1, mensaje: `_get_modelos() returns malformed models: ${mensajeZod(propios.error)}` });
    else {
      Object.assign(modelos, propios.data);
      propiosDe.set(r.segmento, propios.data as Modelos);
    }
  }
  for (const r of recursos) {
    const archivo = d.recursos.find((x) => x.segmento === r.segmento)!.archivo;
    for (const [nombre, modelo] of Object.entries(propiosDe.get(r.segmento) ?? {})) {
      for (const ref of referenciasDe(modelo as never)) {
        if (!modelos[ref]) errores.push({ archivo, linea: lineaModelos.get(r.segmento) ?? 1, mensaje: `model ${nombre} refers to unknown model ${ref}` });
      }
    }
    for (const s of r.servicios) {
      const nombres = [s.cuerpo?.modelo, ...s.respuestas.map((x) => x.esquema?.modelo)].filter((x): x is string => Boolean(x));
      for (const m of nombres) {
        if (!modelos[nombreDeModelo(m)]) errores.push({ archivo, linea: s.origen.linea, mensaje: `${s.metodo} ${s.ruta}: unknown model ${m} (known: ${Object.keys(modelos).sort().join(", ") || "none"})` });
      }
      verificarCamposDeConsulta(s, modelos, calculados.get(r.segmento) ?? new Set(), proyecto, errores);
    }
  }
  for (const c of d.capas) {
    if (typeof (await cargar(c.archivo))[c.nombre] !== "function") errores.push({ archivo: c.archivo, linea: 1, mensaje: `the module does not export class ${c.nombre}` });
  }
  await verificarPermisos(d, recursos, errores, avisos);
  if (d.usuarios) {
    const u = esquemaUsuarios.safeParse((await cargar(d.usuarios)).servidor_usuarios);
    if (!u.success) errores.push({ archivo: d.usuarios, linea: 1, mensaje: `servidor_usuarios is malformed: ${mensajeZod(u.error)}` });
  }
}

async function verificarPermisos(d: Descubierto, recursos: readonly Recurso[], errores: ErrorBuild[], avisos: string[]) {
  const archivos: RecursosUsuarios[] = [];
  for (const archivo of d.permisos) {
    const p = esquemaRecursosUsuarios.safeParse((await cargar(archivo)).recursos_usuarios);
    if (p.success) archivos.push(p.data as RecursosUsuarios);
    else errores.push({ archivo, linea: 1, mensaje: `recursos_usuarios is malformed: ${mensajeZod(p.error)}` });
  }
  const permisos = fusionarPermisos(archivos);
  const usados = new Set<string>();
  for (const s of recursos.flatMap((r) => r.servicios)) {
    usados.add(`${s.permiso} ${s.metodo}`);
    if (!permisos[s.permiso]?.[s.metodo]) avisos.push(`${s.metodo} ${s.ruta} has no entry "${s.permiso}" → ${s.metodo} in recursos_usuarios: it is denied to everybody`);
  }
  for (const [ruta, metodos] of Object.entries(permisos)) {
    for (const m of Object.keys(metodos)) if (!usados.has(`${ruta} ${m}`)) avisos.push(`recursos_usuarios entry "${ruta}" → ${m} matches no service`);
  }
}

/**
 * A list service filters and orders the records of the model it returns (`@responses 200 array
 * {"$ref":"X"}`): each filter parameter and each order term must be a field of that model or a name
 * the resource computes in `rest.consulta({ campos })`. Otherwise the filter would match nothing and
 * the order would do nothing, which only a request would reveal.
 */
function verificarCamposDeConsulta(s: Servicio, modelos: Modelos, calculados: Set<string>, proyecto: string, errores: ErrorBuild[]) {
  const lista = s.respuestas.find((x) => x.estado >= 200 && x.estado < 300 && x.esquema?.arreglo)?.esquema?.modelo;
  const modelo = lista ? modelos[nombreDeModelo(lista)] : undefined;
  if (!modelo) return;
  const conocido = (campo: string) => Object.hasOwn(modelo, campo) || calculados.has(campo);
  const archivo = join(proyecto, s.origen.archivo);
  const lineas = readFileSync(archivo, "utf8").split("\n");
  const lineaDe = (parametro: string) => {
    const i = lineas.findIndex((l, n) => n >= s.origen.linea - 1 && new RegExp(`@param_query\\s+\\$${parametro}\\b`).test(l));
    return i >= 0 ? i + 1 : s.origen.linea;
  };
  const conocidos = () => [...Object.keys(modelo), ...calculados].join(", ");
  for (const p of s.query) {
    if (p.nombre === "limit" || p.nombre === "page") continue;
    const campos = p.nombre === "order" ? p.terminos ?? [] : [p.nombre];
    for (const campo of campos.filter((c) => !conocido(c))) {
      const que = p.nombre === "order" ? `order term "${campo}"` : `filter $${campo}`;
      errores.push({ archivo, linea: lineaDe(p.nombre), mensaje: `${s.metodo} ${s.ruta}: ${que} is not a field of ${lista} (${conocidos()}) nor a name in rest.consulta({ campos })` });
    }
  }
}
