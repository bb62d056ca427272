/**
 * The page a browser shows at `/rest/v2/` (and `/rest/`): every resource with its services — method,
 * path, summary, notes, parameters — self-contained HTML (no scripts, styles inline, nothing fetched
 * from elsewhere), and a link to the Swagger 2.0 document.
 */
import { BASES, type Recurso, type Release, type Servicio } from "./doc/tipos.js";
import { escaparHtml as escapar, notasHtml } from "./doc/marcado.js";

function servicioHtml(s: Servicio, base: string): string {
  const params = [
    ...s.ids.map((id) => `<code>{${escapar(id)}}</code> (ruta)`),
    ...s.query.map((q) => `<code>${escapar(q.nombre)}</code>${q.defecto ? ` (defecto: <code>${escapar(q.defecto)}</code>)` : ""}`),
    ...(s.cuerpo ? [`cuerpo <code>${escapar(s.cuerpo.modelo)}</code>${s.cuerpo.requerido ? " (requerido)" : ""}`] : []),
  ];
  const respuestas = s.respuestas.map((r) => `<code>${r.estado}</code> ${escapar(r.descripcion)}${r.esquema ? ` <code>${r.esquema.arreglo ? "array " : ""}${escapar(r.esquema.modelo)}</code>` : ""}`);
  return `<li class="s"><span class="m m-${s.metodo.toLowerCase()}">${s.metodo}</span> <code>${escapar(base + s.ruta)}</code> — ${escapar(s.resumen)}
${s.notas ? `<div class="n">${notasHtml(s.notas)}</div>` : ""}
${params.length ? `<div class="p">Parámetros: ${params.join(", ")}</div>` : ""}
${respuestas.length ? `<div class="p">Respuestas: ${respuestas.join("; ")}</div>` : ""}</li>`;
}

/** The index's only style, inline; its Content-Security-Policy allows exactly this text by hash. */
export const ESTILO_INDICE = `body{font-family:system-ui,sans-serif;margin:2rem;max-width:60rem}code{background:#f3f3f3;padding:0 .2rem}
.s{margin:.6rem 0;list-style:none}.m{display:inline-block;min-width:4rem;font-weight:bold}.m-get{color:#0a6}.m-post{color:#06c}
.m-put{color:#c60}.m-delete{color:#c00}.n,.p{margin-left:4.3rem;color:#444;font-size:.92rem}`;

export function indiceHtml(recursos: readonly Recurso[], release: Release): string {
  const base = BASES[release];
  const secciones = recursos
    .map((r) => `<section><h2>${escapar(r.segmento)}${r.vendor ? "" : ' <small>(personalización)</small>'}</h2>
${r.descripcion ? `<p>${escapar(r.descripcion)}</p>` : ""}<ul>${r.servicios.map((s) => servicioHtml(s, base)).join("\n")}</ul></section>`)
    .join("\n");
  return `<!doctype html>
<html lang="es"><head><meta charset="utf-8"><title>API REST académica ${release}</title>
<style>${ESTILO_INDICE}</style></head>
<body><h1>API REST académica — release ${release} (<code>${base}/</code>)</h1>
<p>Documento Swagger 2.0: <a href="${base}/api-docs">${base}/api-docs</a> (en Swagger UI: <a href="${base}/swagger-ui">${base}/swagger-ui</a>). Autenticación: HTTP Basic o el parámetro <code>api_key</code>.</p>
${secciones}
</body></html>`;
}
