/**
 * Checks that need the modules loaded: the exported classes and handlers exist at run time, models are
 * well formed and every model a field, body or response names exists, and the permissions and users
 * files have the right shape. Permission entries are compared with the services (warnings only: a
 * service without an entry is denied, which may be intended).
 */
import { pathToFileURL } from "node:url";
import * as z from "zod";
import { nombreDeModelo, referenciasDe, type Modelos } from "../domain/modelos.js";
import { esquemaRecursosUsuarios, fusionarPermisos, type RecursosUsuarios } from "../domain/permisos.js";
import { esquemaUsuarios } from "../domain/usuarios.js";
import type { Recurso } from "../domain/doc/tipos.js";
import type { Descubierto } from "./descubrir.js";
import type { ErrorBuild } from "./servicios.js";

const regla = z.object({ regla: z.enum(["obligatorio", "fecha", "enum", "entero", "longitud"]) }).passthrough();
const campo = z
  .object({
    type: z.string().optional(),
    enum: z.array(z.union([z.string(), z.number(), z.boolean()])).optional(),
    format: z.string().optional(),
    description: z.string().optional(),
    readOnly: z.boolean().optional(),
    default: z.unknown().optional(),
    $ref: z.string().optional(),
    items: z.object({ type: z.string().optional(), $ref: z.string().optional() }).strict().optional(),
    _validar: z.array(regla).optional(),
  })
  .strict();
const esquemaModelos = z.record(z.string().regex(/^\w+$/), z.record(z.string().regex(/^\w+$/), campo));

const cargar = async (archivo: string) => (await import(/* @vite-ignore */ pathToFileURL(archivo).href)) as Record<string, unknown>;
/** `path: message` per issue; a bad record key reports what the key should look like. */
const mensajeZod = (e: z.ZodError) =>
  e.issues
    .map((i) => {
      const interno = i.code === "invalid_key" ? i.issues[0]?.message : undefined;
      return `${i.path.join(".") || "(root)"}: ${interno ? `invalid key: expected ${interno}` : i.message}`;
    })
    .join("; ");

export async function verificarEnEjecucion(d: Descubierto, recursos: readonly Recurso[], lineaModelos: Map<string, number>, errores: ErrorBuild[], avisos: string[]): Promise<void> {
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
