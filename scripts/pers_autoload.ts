/**
 * `pers_autoload`: regenerates `functions/academic/generated/{routes,registro}.ts` from the
 * customization folder `rest/` and the vendor folder. Run by `npm start`, `npm test` and the deploy
 * before anything loads the route table; a malformed doc comment stops it with `file:line: problem`.
 *
 *   npx tsx scripts/pers_autoload.ts [--root <customization folder>] [--out <output folder>] [--check]
 *
 * `--check` writes nothing and fails when the generated files on disk are stale.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { autoload } from "../functions/academic/build/autoload.js";

const proyecto = resolve(import.meta.dirname, "..");

function opcion(nombre: string): string | undefined {
  const i = process.argv.indexOf(nombre);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<number> {
  const check = process.argv.includes("--check");
  const raiz = opcion("--root");
  const salida = opcion("--out");
  const r = await autoload({ proyecto, raiz: raiz && resolve(raiz), salida: salida && resolve(salida) });
  for (const aviso of r.avisos) console.warn(`pers_autoload: warning: ${aviso}`);
  if (r.errores.length > 0) {
    for (const e of r.errores) console.error(`${relative(process.cwd(), e.archivo)}:${e.linea}: ${e.mensaje}`);
    console.error(`pers_autoload: ${r.errores.length} error(s); nothing generated`);
    return 1;
  }
  const viejos = r.archivos.filter((a) => !existsSync(a.ruta) || readFileSync(a.ruta, "utf8") !== a.contenido);
  if (check) {
    for (const a of viejos) console.error(`pers_autoload: ${relative(process.cwd(), a.ruta)} is stale: run npx tsx scripts/pers_autoload.ts`);
    return viejos.length > 0 ? 1 : 0;
  }
  for (const a of viejos) {
    mkdirSync(dirname(a.ruta), { recursive: true });
    writeFileSync(a.ruta, a.contenido);
  }
  const servicios = r.recursos.reduce((n, x) => n + x.servicios.length, 0);
  console.log(`pers_autoload: ${r.recursos.length} resources, ${servicios} services${viejos.length ? `; wrote ${viejos.map((a) => relative(process.cwd(), a.ruta)).join(", ")}` : "; up to date"}`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
