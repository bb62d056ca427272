/**
 * Academic REST benchmark: GET /rest/v2/docentes-uni with a filter and an order over 10,000 teachers
 * (9,000 active), against the bare route `/__bench/bare` as the baseline. Target: p50 ≤ 100 ms locally.
 *
 * Seeding writes straight through the data layer (batch writes; the bench process has the runtime's
 * environment). Ids are fixed, so running the bench again overwrites the same teachers.
 */
import { rest_docentes } from "../rest/v2/modelos/rest_docentes.js";

const DOCENTES = 10_000;
const PRIMER_ID = 1_000_001;
const PEDIDOS = 300;
const CALENTAMIENTO = 20;
const AUTORIZACION = `Basic ${Buffer.from("admin_dev:admin-dev-clave").toString("base64")}`;

const APELLIDOS = ["González", "Rodríguez", "Gómez", "Fernández", "López", "Díaz", "Martínez", "Pérez", "García", "Sánchez", "Romero", "Sosa", "Álvarez", "Torres", "Ruiz", "Ramírez", "Flores", "Acosta", "Benítez", "Medina"];
const NOMBRES = ["María", "Juan", "Ana", "Carlos", "Laura", "Jorge", "Lucía", "Pablo", "Sofía", "Diego", "Valeria", "Martín", "Julieta", "Nicolás", "Camila"];
/** Filter values rotated across requests, so each request filters for real. */
const FRAGMENTOS = ["ez", "gar", "ma", "ana", "sos", "lo", "ro", "ia"];

function docentes() {
  return Array.from({ length: DOCENTES }, (_, i) => ({
    docente: PRIMER_ID + i,
    legajo: `L-${String(i).padStart(6, "0")}`,
    apellido: `${APELLIDOS[(i * 7) % APELLIDOS.length]}${i % 3 === 0 ? ` ${APELLIDOS[(i * 11) % APELLIDOS.length]}` : ""}`,
    nombre: NOMBRES[(i * 13) % NOMBRES.length]!,
    dni: String(20_000_000 + i),
    activo: i % 10 !== 0,
  }));
}

async function medir(url: string, headers: Record<string, string>, n: number, esperado?: number): Promise<number[]> {
  const tiempos: number[] = [];
  for (let i = 0; i < n; i++) {
    const u = url.replace("{i}", encodeURIComponent(FRAGMENTOS[i % FRAGMENTOS.length]!));
    const inicio = performance.now();
    const res = await fetch(u, { headers });
    await res.arrayBuffer();
    tiempos.push(performance.now() - inicio);
    if (esperado !== undefined && res.status !== esperado) throw new Error(`GET ${u} answered ${res.status}, expected ${esperado}`);
    if (res.status >= 500) throw new Error(`GET ${u} answered ${res.status}`);
  }
  return tiempos;
}

function percentil(tiempos: number[], p: number): number {
  const orden = [...tiempos].sort((a, b) => a - b);
  return Math.round(orden[Math.min(orden.length - 1, Math.floor((p / 100) * orden.length))]! * 100) / 100;
}

export async function run(ctx: { baseUrl: string }) {
  await new rest_docentes().importar(docentes());
  const lista = `${ctx.baseUrl}/rest/v2/docentes-uni?apellido_nombre=contiene;{i}&order=${encodeURIComponent("+nombre,-legajo")}&limit=20`;
  const bare = `${ctx.baseUrl}/__bench/bare`;
  const auth = { Authorization: AUTORIZACION };
  await medir(lista, auth, CALENTAMIENTO, 200);
  await medir(bare, {}, CALENTAMIENTO);
  const tiempos = await medir(lista, auth, PEDIDOS, 200);
  const base = await medir(bare, {}, PEDIDOS);
  return [
    {
      name: `academic: GET /rest/v2/docentes-uni filter+order over ${DOCENTES.toLocaleString("en")} teachers`,
      baseline: "GET /__bench/bare",
      p50: percentil(tiempos, 50),
      p99: percentil(tiempos, 99),
      baselineP50: percentil(base, 50),
      baselineP99: percentil(base, 99),
    },
  ];
}
