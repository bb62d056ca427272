/**
 * The markup a doc comment's text may carry, and how each reader gets it: `<br>`, `<b>`,
 * `<strong>`, `<i>`, `<em>`, `<code>` (without attributes) and `**…**`, as SIU's notes use them.
 * The index renders it in notes; the Swagger documents keep it in every description. Everything
 * else is text: `<condicion>;<valor>` or `{"docente": <id>}` must show as written, not vanish as
 * an unknown HTML tag.
 */

export const escaparHtml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

/** Turns the escaped form of each allowed tag back into the tag. */
const restaurarEtiquetas = (escapado: string) =>
  escapado
    .replace(/&lt;br\s*\/?&gt;/gi, "<br>")
    .replace(/&lt;(\/?)(b|strong|i|em|code)&gt;/gi, (_, cierre: string, etiqueta: string) => `<${cierre}${etiqueta.toLowerCase()}>`);

/** For the HTML index: the allowed markup rendered, everything else escaped. */
export function notasHtml(notas: string): string {
  return restaurarEtiquetas(escaparHtml(notas)).replace(/\*\*(.+?)\*\*/g, "<b>$1</b>");
}

/**
 * For a Swagger document's descriptions, which Swagger UI renders as Markdown with inline HTML
 * (and then drops unknown tags): the allowed tags stay HTML, every other `<` and `>` becomes an
 * entity, which Markdown shows as the character. Only the angle brackets are touched, so code
 * generators that copy descriptions into docstrings get the author's text otherwise unchanged.
 */
export function descripcionSwagger(texto: string): string {
  return restaurarEtiquetas(texto.replace(/</g, "&lt;").replace(/>/g, "&gt;"));
}
