/**
 * The storage-move state machine drawn as SVG, from the laid-out definition (`moves/domain/asl-graph.ts`
 * over `storage-move.asl.json`, the file that runs). Server-rendered into the move page; its script
 * marks states (`visited`, `current`, `failed`) by class and fills each state's mark text, so what a
 * state is shows in words and line weight too, not in colour alone.
 *
 * Allowed by the pages' Content-Security-Policy: no script, no `style` attribute (presentation
 * attributes and the stylesheet's classes). Every text is escaped.
 */
import { escapeHtml } from "../../ui/layout.js";
import type { GraphEdge, GraphNode, StateGraph } from "../../../moves/domain/asl-graph.js";

const LABEL_MAX = 30;
const short = (text: string) => (text.length > LABEL_MAX ? `${text.slice(0, LABEL_MAX - 1)}…` : text);
const num = (n: number) => String(Math.round(n * 10) / 10);

function stateMarkup(n: GraphNode): string {
  const title = `${n.name} (${n.type})${n.parent ? `, in ${n.parent}` : ""}${n.comment ? `: ${n.comment}` : ""}`;
  const attrs = `class="state${n.container ? " container" : ""}" data-state="${escapeHtml(n.name)}" data-type="${escapeHtml(n.type)}" id="state-${escapeHtml(n.name)}"`;
  const rx = n.type === "Choice" ? 16 : n.type === "Succeed" || n.type === "Fail" ? 20 : 4;
  const rect = `<rect x="${num(n.x)}" y="${num(n.y)}" width="${num(n.width)}" height="${num(n.height)}" rx="${rx}" fill="${n.container ? "#f7f7fb" : "#ffffff"}" stroke="#5e5e6a" stroke-width="1.5"${n.container ? ' stroke-dasharray="6 3"' : ""}/>`;
  const text = (x: number, y: number, cls: string, size: number, value: string, anchor = "start") =>
    `<text class="${cls}" x="${num(x)}" y="${num(y)}" font-size="${size}" text-anchor="${anchor}" fill="#1f1f24">${escapeHtml(value)}</text>`;
  const kind = n.terminal && n.type !== "Succeed" && n.type !== "Fail" ? `${n.type} · end` : n.type;
  const name = n.container
    ? `<text class="name" x="${num(n.x + 10)}" y="${num(n.y + 19)}" font-size="13" fill="#1f1f24">${escapeHtml(n.name)}<tspan class="kind" font-size="10" fill="#3d3d47"> · ${escapeHtml(kind)}</tspan></text>`
    : text(n.x + n.width / 2, n.y + 18, "name", 13, n.name, "middle") + text(n.x + n.width / 2, n.y + 33, "kind", 10, kind, "middle");
  // Filled by the page script: "✓ done", "▶ now", "✗ failed".
  const mark = text(n.x + n.width - 8, n.y + (n.container ? 19 : 14), "mark", 11, "", "end");
  return `<g ${attrs}><title>${escapeHtml(title)}</title>${rect}${name}${mark}</g>`;
}

function edgeMarkup(e: GraphEdge, arrow: string): string {
  const d = e.points.map(([x, y], i) => `${i ? "L" : "M"}${num(x)} ${num(y)}`).join(" ");
  const dash = e.kind === "catch" ? ' stroke-dasharray="5 3"' : e.back ? ' stroke-dasharray="2 3"' : "";
  const title = `${e.from} → ${e.to}${e.label ? ` (${e.label})` : ""}${e.back ? ", back" : ""}`;
  const path = `<path class="edge edge-${e.kind}" data-from="${escapeHtml(e.from)}" data-to="${escapeHtml(e.to)}" d="${d}" fill="none" stroke="#5e5e6a" stroke-width="1.2"${dash} marker-end="url(#${arrow})"><title>${escapeHtml(title)}</title></path>`;
  // Choice conditions are written beside their edge, just under the Choice state.
  if (e.kind !== "choice" && e.kind !== "default") return path;
  const [x, y] = e.points[2] ?? e.points[1] ?? e.points[0]!;
  const label = `<text class="edge-label" x="${num(x + 4)}" y="${num(y + 12)}" font-size="9.5" fill="#3d3d47">${escapeHtml(short(e.label ?? ""))}</text>`;
  return path + label;
}

/**
 * `id` prefixes the ids inside (the arrow marker, the title), so two drawings can share a page.
 * Containers are drawn first, edges over them, states on top.
 */
export function stateMachineSvg(graph: StateGraph, opts: { id: string; title: string; description: string }): string {
  const id = escapeHtml(opts.id);
  const arrow = `${id}-arrow`;
  const containers = graph.nodes.filter((n) => n.container).map(stateMarkup);
  const states = graph.nodes.filter((n) => !n.container).map(stateMarkup);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" class="state-machine" id="${id}" role="img" aria-labelledby="${id}-title" aria-describedby="${id}-desc" viewBox="0 0 ${num(graph.width)} ${num(graph.height)}" width="${num(graph.width)}" height="${num(graph.height)}" font-family="system-ui, sans-serif" focusable="false">` +
    `<title id="${id}-title">${escapeHtml(opts.title)}</title><desc id="${id}-desc">${escapeHtml(opts.description)}</desc>` +
    `<defs><marker id="${arrow}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0 0 L10 5 L0 10 z" fill="#5e5e6a"/></marker></defs>` +
    containers.join("") +
    graph.edges.map((e) => edgeMarkup(e, arrow)).join("") +
    states.join("") +
    `</svg>`
  );
}
