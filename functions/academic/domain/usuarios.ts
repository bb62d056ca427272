/**
 * API users (the original's `servidor_usuarios.ini`): each has groups and hashed secrets — a password
 * for HTTP Basic and/or an `api_key` — never the secrets themselves.
 *
 * Hash formats: `scrypt$<N>$<r>$<p>$<salt b64>$<hash b64>` (passwords) or `sha256$<hex>` (long random
 * API keys, where a fast hash is enough). `hashSecreto()` makes either.
 *
 * The users come from the customization folder's `servidor_usuarios.ts`, or, when set, from the
 * environment variable `FORGELINE_ACADEMIC_USERS_JSON` (the same list as JSON; this is how a deployment
 * passes its own users). Entries marked `solo_desarrollo` are refused when running on AWS Lambda.
 */
import { createHash, randomBytes, scryptSync, timingSafeEqual } from "node:crypto";
import * as z from "zod/mini";
import type { Identidad } from "./permisos.js";

const HASH = /^scrypt\$\d+\$\d+\$\d+\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$|^sha256\$[0-9a-f]{64}$/;
const COMO_HASHEAR = "a hash (scrypt$… or sha256$…) made with `npx tsx functions/academic/build/hash.ts <secret>`, never the secret itself";

export const esquemaUsuarios = z.array(
  z.strictObject({
    usuario: z.string().check(z.regex(/^[\w.-]{1,64}$/)),
    grupos: z.array(z.string().check(z.regex(/^[\w.-]+$/))),
    password: z.optional(z.string().check(z.regex(HASH, COMO_HASHEAR))),
    api_key: z.optional(z.string().check(z.regex(HASH, COMO_HASHEAR))),
    solo_desarrollo: z.optional(z.boolean()),
  }),
);

export type UsuarioApi = z.infer<typeof esquemaUsuarios>[number];

export function hashSecreto(secreto: string, tipo: "scrypt" | "sha256" = "scrypt"): string {
  if (tipo === "sha256") return `sha256$${createHash("sha256").update(secreto).digest("hex")}`;
  const sal = randomBytes(16);
  const [N, r, p] = [16384, 8, 1];
  return `scrypt$${N}$${r}$${p}$${sal.toString("base64")}$${scryptSync(secreto, sal, 32, { N, r, p }).toString("base64")}`;
}

export function verificarSecreto(secreto: string, hash: string): boolean {
  const partes = hash.split("$");
  if (partes[0] === "sha256") return iguales(createHash("sha256").update(secreto).digest(), Buffer.from(partes[1] ?? "", "hex"));
  if (partes[0] !== "scrypt" || partes.length !== 6) return false;
  const [N, r, p] = partes.slice(1, 4).map(Number) as [number, number, number];
  const esperado = Buffer.from(partes[5]!, "base64");
  return iguales(scryptSync(secreto, Buffer.from(partes[4]!, "base64"), esperado.length, { N, r, p, maxmem: 256 * N * r }), esperado);
}

const iguales = (a: Buffer, b: Buffer) => a.length === b.length && timingSafeEqual(a, b);

/** The users in force: the environment's list when set, else the file's; dev-only users off on AWS. */
export function usuariosVigentes(delArchivo: readonly UsuarioApi[]): UsuarioApi[] {
  const env = process.env.FORGELINE_ACADEMIC_USERS_JSON;
  const lista = env ? esquemaUsuarios.parse(JSON.parse(env)) : [...delArchivo];
  const enAws = Boolean(process.env.AWS_LAMBDA_FUNCTION_NAME);
  return lista.filter((u) => !(enAws && u.solo_desarrollo));
}

/**
 * Checks a credential. Successful checks are remembered for a few minutes (keyed by a SHA-256 of the
 * credential) because scrypt is deliberately slow and clients authenticate on every request.
 */
const verificados = new Map<string, { identidad: Identidad; hasta: number }>();
const VIGENCIA_MS = 5 * 60_000;

export type Credencial = { tipo: "basic"; usuario: string; password: string } | { tipo: "api_key"; clave: string };

export function autenticar(credencial: Credencial, usuarios: readonly UsuarioApi[]): Identidad | undefined {
  const clave = createHash("sha256").update(JSON.stringify([credencial, usuarios])).digest("hex");
  const previo = verificados.get(clave);
  if (previo && previo.hasta > Date.now()) return previo.identidad;
  const encontrado =
    credencial.tipo === "basic" ? conPassword(credencial.usuario, credencial.password, usuarios) : conApiKey(credencial.clave, usuarios);
  if (!encontrado) return undefined;
  const identidad = { usuario: encontrado.usuario, grupos: encontrado.grupos };
  if (verificados.size > 10_000) verificados.clear();
  verificados.set(clave, { identidad, hasta: Date.now() + VIGENCIA_MS });
  return identidad;
}

/** A fixed hash checked when the user does not exist, so a wrong name costs as long as a wrong password. */
let senuelo: string | undefined;
const hashSenuelo = () => (senuelo ??= hashSecreto(randomBytes(16).toString("hex")));

function conPassword(usuario: string, password: string, usuarios: readonly UsuarioApi[]): UsuarioApi | undefined {
  const u = usuarios.find((x) => x.usuario === usuario && x.password);
  const ok = verificarSecreto(password, u?.password ?? hashSenuelo());
  return u && ok ? u : undefined;
}

function conApiKey(clave: string, usuarios: readonly UsuarioApi[]): UsuarioApi | undefined {
  return usuarios.find((u) => u.api_key && verificarSecreto(clave, u.api_key));
}
