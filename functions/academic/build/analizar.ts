/**
 * Reads a resource or data layer source file with the TypeScript compiler's parser (no type checking):
 * its classes, their `extends`/`implements`, methods (visibility, parameters, doc comment and line),
 * and where an imported name comes from, following `export { x } from` re-exports.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import ts from "typescript";

export interface Comentario {
  texto: string;
  linea: number;
}

export interface MetodoAnalizado {
  nombre: string;
  linea: number;
  publico: boolean;
  estatico: boolean;
  parametros: number;
  comentario?: Comentario;
}

export interface ClaseAnalizada {
  nombre: string;
  archivo: string;
  linea: number;
  exportada: boolean;
  extiende?: string;
  implementa: string[];
  metodos: MetodoAnalizado[];
  /** The class's (or else the file's first) doc comment `@description` text. */
  descripcion: string;
}

const fuentes = new Map<string, ts.SourceFile>();

function fuente(archivo: string): ts.SourceFile {
  let sf = fuentes.get(archivo);
  if (!sf) {
    sf = ts.createSourceFile(archivo, readFileSync(archivo, "utf8"), ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    fuentes.set(archivo, sf);
  }
  return sf;
}

/** Forget cached sources (a watch-less CLI runs once; tests rerun on changed fixtures). */
export const olvidarFuentes = () => fuentes.clear();

const linea = (sf: ts.SourceFile, pos: number) => sf.getLineAndCharacterOfPosition(pos).line + 1;

/** The last `/** … *\/` comment right before a node. */
function comentarioDe(sf: ts.SourceFile, nodo: ts.Node): Comentario | undefined {
  const rangos = ts.getLeadingCommentRanges(sf.text, nodo.getFullStart()) ?? [];
  const doc = rangos.filter((r) => sf.text.startsWith("/**", r.pos)).pop();
  return doc && { texto: sf.text.slice(doc.pos, doc.end), linea: linea(sf, doc.pos) };
}

function descripcionDe(texto: string | undefined): string {
  const m = /@description\s+([\s\S]*?)(?=\n\s*\*\s*@|\*\/)/.exec(texto ?? "");
  return m ? m[1]!.replace(/\n\s*\*\s?/g, " ").replace(/\s+/g, " ").trim() : "";
}

const tiene = (nodo: ts.Node, kind: ts.SyntaxKind) => (ts.canHaveModifiers(nodo) ? ts.getModifiers(nodo) ?? [] : []).some((m) => m.kind === kind);

export function analizarArchivo(archivo: string): ClaseAnalizada[] {
  const sf = fuente(archivo);
  const primerComentario = ts.getLeadingCommentRanges(sf.text, 0)?.find((r) => sf.text.startsWith("/**", r.pos));
  const textoArchivo = primerComentario && sf.text.slice(primerComentario.pos, primerComentario.end);
  const clases: ClaseAnalizada[] = [];
  for (const st of sf.statements) {
    if (!ts.isClassDeclaration(st) || !st.name) continue;
    const herencia = (kind: ts.SyntaxKind) =>
      (st.heritageClauses ?? []).filter((h) => h.token === kind).flatMap((h) => h.types.map((t) => t.expression.getText(sf)));
    const metodos: MetodoAnalizado[] = [];
    for (const m of st.members) {
      if (!ts.isMethodDeclaration(m) || !m.name || !ts.isIdentifier(m.name)) continue;
      metodos.push({
        nombre: m.name.text,
        linea: linea(sf, m.getStart(sf)),
        publico: !tiene(m, ts.SyntaxKind.PrivateKeyword) && !tiene(m, ts.SyntaxKind.ProtectedKeyword),
        estatico: tiene(m, ts.SyntaxKind.StaticKeyword),
        parametros: m.parameters.length,
        comentario: comentarioDe(sf, m),
      });
    }
    clases.push({
      nombre: st.name.text,
      archivo,
      linea: linea(sf, st.getStart(sf)),
      exportada: tiene(st, ts.SyntaxKind.ExportKeyword),
      extiende: herencia(ts.SyntaxKind.ExtendsKeyword)[0],
      implementa: herencia(ts.SyntaxKind.ImplementsKeyword),
      metodos,
      descripcion: descripcionDe(comentarioDe(sf, st)?.texto) || descripcionDe(textoArchivo),
    });
  }
  return clases;
}

/** `./x.js` imported from `desde` → the `.ts` file on disk. */
function resolverModulo(especificador: string, desde: string): string | undefined {
  if (!especificador.startsWith(".")) return undefined;
  const base = resolve(dirname(desde), especificador);
  return [base.replace(/\.js$/, ".ts"), `${base}.ts`, resolve(base, "index.ts")].find((f) => existsSync(f));
}

/** Where the class bound to `nombre` in `archivo` is declared, following imports and re-exports. */
export function buscarClase(nombre: string, archivo: string, visitados = new Set<string>()): ClaseAnalizada | undefined {
  if (visitados.has(`${archivo}#${nombre}`)) return undefined;
  visitados.add(`${archivo}#${nombre}`);
  const propia = analizarArchivo(archivo).find((c) => c.nombre === nombre);
  if (propia) return propia;
  for (const st of fuente(archivo).statements) {
    let elementos: ts.NodeArray<ts.ImportSpecifier | ts.ExportSpecifier> | undefined;
    if (ts.isImportDeclaration(st) && st.importClause?.namedBindings && ts.isNamedImports(st.importClause.namedBindings)) {
      elementos = st.importClause.namedBindings.elements;
    } else if (ts.isExportDeclaration(st) && st.exportClause && ts.isNamedExports(st.exportClause)) {
      elementos = st.exportClause.elements;
    }
    const especificador = (st as { moduleSpecifier?: ts.Expression }).moduleSpecifier;
    const desde = especificador && ts.isStringLiteral(especificador) ? especificador.text : undefined;
    if (!desde || !elementos) continue;
    const el = elementos.find((e) => e.name.text === nombre);
    const destino = el && resolverModulo(desde, archivo);
    if (el && destino) return buscarClase(el.propertyName?.text ?? el.name.text, destino, visitados);
  }
  return undefined;
}

/**
 * The names a file gives in the `campos` option of `rest.consulta({ campos: { … } })`: list fields a
 * resource computes (`apellido_nombre`), which its services may filter and order by.
 */
export function camposDeConsulta(archivo: string): string[] {
  const sf = fuente(archivo);
  const nombres: string[] = [];
  const visitar = (nodo: ts.Node): void => {
    if (ts.isPropertyAssignment(nodo) && ts.isIdentifier(nodo.name) && nodo.name.text === "campos" && ts.isObjectLiteralExpression(nodo.initializer)) {
      for (const p of nodo.initializer.properties) {
        const nombre = p.name && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) ? p.name.text : undefined;
        if (nombre) nombres.push(nombre);
      }
    }
    ts.forEachChild(nodo, visitar);
  };
  visitar(sf);
  return nombres;
}
