/**
 * The seed's permissions table, row by row and group by group, on both releases; 401 (no or wrong
 * credentials, with WWW-Authenticate) versus 403 (`Acceso denegado`); HTTP Basic and api_key.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { tieneAcceso, usuarios_admin, usuarios_verificador } from "../../functions/academic/domain/permisos.js";
import { hashSecreto, usuariosVigentes, verificarSecreto, type UsuarioApi } from "../../functions/academic/domain/usuarios.js";
import { acad, basic, marca, RELEASES, USUARIOS, type Quien } from "./support.js";

let ids = 710_000_000 + Math.floor(Math.random() * 9_000_000);
const docenteId = () => String(ids++);

/** One request per row of the seed's table, ready to be sent as anybody; `ok` is the status when allowed. */
async function filas(base: string) {
  const nombre = marca("Perm");
  expect((await acad("POST", `${base}/aulas-uni`, { body: { nombre } })).status).toBe(201);
  const aula = (await acad("GET", `${base}/aulas-uni?nombre=es_igual_a;${nombre}`)).body[0].aula;
  const existente = async () => {
    const id = docenteId();
    expect((await acad("PUT", `${base}/docentes-uni/${id}`, { body: { apellido: "Perm", nombre: "Uno" } })).status).toBe(201);
    return id;
  };
  return [
    { patron: "aulas-uni", metodo: "GET", grupos: ["admin"], ok: 200, pedir: async () => ({ path: "/aulas-uni" }) },
    { patron: "aulas-uni", metodo: "POST", grupos: ["admin"], ok: 201, pedir: async () => ({ path: "/aulas-uni", body: { nombre: marca("Perm") } }) },
    { patron: "aulas-uni/id", metodo: "GET", grupos: ["admin"], ok: 200, pedir: async () => ({ path: `/aulas-uni/${aula}` }) },
    { patron: "docentes-uni", metodo: "GET", grupos: ["admin", "verificador"], ok: 200, pedir: async () => ({ path: "/docentes-uni" }) },
    { patron: "docentes-uni/id", metodo: "GET", grupos: ["admin", "verificador"], ok: 200, pedir: async () => ({ path: `/docentes-uni/${await existente()}` }) },
    { patron: "docentes-uni/id", metodo: "PUT", grupos: ["admin", "verificador"], ok: 201, pedir: async () => ({ path: `/docentes-uni/${docenteId()}`, body: { apellido: "A", nombre: "B" } }) },
    { patron: "docentes-uni/id", metodo: "DELETE", grupos: ["admin", "verificador"], ok: 204, pedir: async () => ({ path: `/docentes-uni/${await existente()}` }) },
    { patron: "docentes-uni/id/comisiones", metodo: "GET", grupos: ["admin", "verificador"], ok: 500, pedir: async () => ({ path: `/docentes-uni/${await existente()}/comisiones` }) },
  ];
}

const QUIENES: Quien[] = ["admin", "verificador", "invitado", "anonimo"];

for (const { release, base } of RELEASES) {
  describe(`${release} permissions table`, () => {
    let tabla: Awaited<ReturnType<typeof filas>>;
    beforeAll(async () => {
      tabla = await filas(base);
    });

    it("has exactly the seed's eight rows", () => {
      expect(tabla.map((f) => `${f.patron} ${f.metodo}`)).toEqual([
        "aulas-uni GET", "aulas-uni POST", "aulas-uni/id GET", "docentes-uni GET",
        "docentes-uni/id GET", "docentes-uni/id PUT", "docentes-uni/id DELETE", "docentes-uni/id/comisiones GET",
      ]);
    });

    for (const quien of QUIENES) {
      it(`each row as ${quien}`, async () => {
        for (const fila of tabla) {
          const { path, body } = (await fila.pedir()) as { path: string; body?: unknown };
          const r = await acad(fila.metodo, base + path, { como: quien, body });
          const permitido = quien !== "anonimo" && quien !== "invitado" && fila.grupos.includes(quien);
          const esperado = quien === "anonimo" ? 401 : permitido ? fila.ok : 403;
          expect({ fila: `${fila.metodo} ${fila.patron}`, status: r.status }).toEqual({ fila: `${fila.metodo} ${fila.patron}`, status: esperado });
          if (esperado === 403) expect(r.body).toEqual({ error: 403, mensaje: "403 Forbidden", descripcion: "Acceso denegado" });
          if (esperado === 401) expect(r.headers.get("www-authenticate")).toBe('Basic realm="Usuario de la API"');
        }
      });
    }
  });
}

describe("authentication", () => {
  it("401 envelope with WWW-Authenticate without credentials, with a wrong password or an unknown api_key", async () => {
    const sin = await acad("GET", "/rest/v2/aulas-uni", { como: "anonimo" });
    expect(sin.body).toEqual({ error: 401, mensaje: "401 Unauthorized", descripcion: "Se requiere autenticación: HTTP Basic o el parámetro api_key" });
    const mala = await acad("GET", "/rest/v2/aulas-uni", { headers: { Authorization: basic("admin_dev", "otra") } });
    expect(mala).toMatchObject({ status: 401, body: { descripcion: "Autenticación cancelada: usuario o contraseña incorrectos" } });
    expect(mala.headers.get("www-authenticate")).toBe('Basic realm="Usuario de la API"');
    const nadie = await acad("GET", "/rest/v2/aulas-uni", { headers: { Authorization: basic("nadie", "x") } });
    expect(nadie.status).toBe(401);
    const clave = await acad("GET", "/rest/v2/aulas-uni?api_key=no-existe", { como: "anonimo" });
    expect(clave).toMatchObject({ status: 401, body: { descripcion: "No se encontró un usuario para la api_key indicada" } });
    expect(clave.text).not.toContain("no-existe");
    const rota = await acad("GET", "/rest/v2/aulas-uni", { headers: { Authorization: "Basic !!!" } });
    expect(rota.status).toBe(401);
  });

  it("accepts the api_key query parameter, checked before Basic when present", async () => {
    expect((await acad("GET", `/rest/v2/aulas-uni?api_key=${USUARIOS.admin.api_key}`, { como: "anonimo" })).status).toBe(200);
    expect((await acad("GET", `/rest/aulas-uni?api_key=${USUARIOS.verificador.api_key}`, { como: "anonimo" })).status).toBe(403);
    expect((await acad("GET", "/rest/v2/aulas-uni?api_key=mala", { como: "admin" })).status).toBe(401);
  });

  it("stores hashed secrets only and verifies both hash kinds", () => {
    const scrypt = hashSecreto("s3creto");
    const sha = hashSecreto("una-api-key-larga", "sha256");
    expect(scrypt).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(verificarSecreto("s3creto", scrypt)).toBe(true);
    expect(verificarSecreto("otro", scrypt)).toBe(false);
    expect(verificarSecreto("una-api-key-larga", sha)).toBe(true);
    expect(verificarSecreto("x", "md5$abc")).toBe(false);
  });

  it("takes users from FORGELINE_ACADEMIC_USERS_JSON when set, and refuses dev-only users on Lambda", () => {
    const archivo: UsuarioApi[] = [{ usuario: "dev", grupos: ["admin"], solo_desarrollo: true }, { usuario: "prod", grupos: [] }];
    try {
      expect(usuariosVigentes(archivo).map((u) => u.usuario)).toEqual(["dev", "prod"]);
      process.env.AWS_LAMBDA_FUNCTION_NAME = "fn";
      expect(usuariosVigentes(archivo).map((u) => u.usuario)).toEqual(["prod"]);
      process.env.FORGELINE_ACADEMIC_USERS_JSON = JSON.stringify([{ usuario: "env", grupos: ["verificador"] }]);
      expect(usuariosVigentes(archivo).map((u) => u.usuario)).toEqual(["env"]);
    } finally {
      delete process.env.AWS_LAMBDA_FUNCTION_NAME;
      delete process.env.FORGELINE_ACADEMIC_USERS_JSON;
    }
  });
});

describe("permission rules", () => {
  const permisos = { "x-uni": { GET: { usuarios: [...usuarios_admin, "juan"] } }, "x-uni/id": { GET: { usuarios: [...usuarios_verificador] } } };
  it("allows by group or by user name; a service without an entry is denied", () => {
    expect(tieneAcceso({ usuario: "ana", grupos: ["admin"] }, permisos, "x-uni", "GET")).toBe(true);
    expect(tieneAcceso({ usuario: "juan", grupos: [] }, permisos, "x-uni", "GET")).toBe(true);
    expect(tieneAcceso({ usuario: "ana", grupos: ["admin"] }, permisos, "x-uni/id", "GET")).toBe(false);
    expect(tieneAcceso({ usuario: "ana", grupos: ["admin"] }, permisos, "x-uni", "POST")).toBe(false);
    expect(tieneAcceso({ usuario: "ana", grupos: ["admin"] }, permisos, "y-uni", "GET")).toBe(false);
  });
});
