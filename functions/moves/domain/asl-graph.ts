/**
 * The storage-move state machine as a picture: `storage-move.asl.json` (the file that runs) laid out
 * as boxes and arrows, for the operator console's move page (`web/admin/ui/state-machine-svg.ts`
 * draws it). Pure: a definition in, positions out; any valid ASL works, not only ours.
 *
 * Layout: each state machine (the top level, each Parallel branch, a Map's item processor) is laid
 * out on its own, in layers from `StartAt` by the longest path over its forward transitions (a
 * transition back to a state on the current depth-first path closes a loop and is drawn as a back
 * edge). A Parallel or Map state is a box holding its machines side by side. Edges between adjacent
 * layers go straight down; an edge that skips layers runs down the left gutter (the `Catch`es to the
 * failure path), a back edge up the gutter on its side, so no edge crosses a state.
 */

export interface AslState {
  Type: string;
  Next?: string;
  End?: boolean;
  Default?: string;
  Comment?: string;
  Choices?: Array<Record<string, unknown> & { Next?: string }>;
  Catch?: Array<{ ErrorEquals?: string[]; Next: string }>;
  Branches?: AslMachine[];
  ItemProcessor?: AslMachine;
  Iterator?: AslMachine;
  [field: string]: unknown;
}

export interface AslMachine {
  StartAt: string;
  States: Record<string, AslState>;
  [field: string]: unknown;
}

export type EdgeKind = "next" | "choice" | "default" | "catch";

export interface GraphNode {
  name: string;
  type: string;
  x: number;
  y: number;
  width: number;
  height: number;
  /** A Parallel or Map state: a box around the machines it runs. */
  container: boolean;
  /** The container state it runs in (undefined at the top level). */
  parent?: string;
  comment?: string;
  /** A state that ends its machine (`End`, `Succeed`, `Fail`). */
  terminal: boolean;
}

export interface GraphEdge {
  from: string;
  to: string;
  kind: EdgeKind;
  /** A short text of the transition's condition (Choice), or the errors a Catch takes. */
  label?: string;
  /** Where the edge runs, first point on `from`, last on `to`. */
  points: Array<[number, number]>;
  back: boolean;
}

export interface StateGraph {
  width: number;
  height: number;
  nodes: GraphNode[];
  edges: GraphEdge[];
}

export const NODE_WIDTH = 172;
export const NODE_HEIGHT = 42;
const H_GAP = 28;
const V_GAP = 40;
/** Room beside a machine's states for edges that skip layers (inner lane) and loop back (outer lane). */
const GUTTER = 30;
const LANE = 12;
const PAD = 14;
const HEADER = 30;

/** Every transition out of a state, in the order its definition gives them (Catches last). */
export function transitions(state: AslState): Array<{ to: string; kind: EdgeKind; label?: string }> {
  const out: Array<{ to: string; kind: EdgeKind; label?: string }> = [];
  if (state.Next) out.push({ to: state.Next, kind: "next" });
  for (const choice of state.Choices ?? []) if (choice.Next) out.push({ to: choice.Next, kind: "choice", label: ruleText(choice) });
  if (state.Default) out.push({ to: state.Default, kind: "default", label: "otherwise" });
  for (const c of state.Catch ?? []) out.push({ to: c.Next, kind: "catch", label: `catch ${(c.ErrorEquals ?? []).join(", ")}` });
  return out;
}

/** The machines a state runs inside itself: a Parallel's branches, a Map's item processor. */
export function innerMachines(state: AslState): AslMachine[] {
  return [...(state.Branches ?? []), ...(state.ItemProcessor ? [state.ItemProcessor] : state.Iterator ? [state.Iterator] : [])];
}

/** Every state name of a definition, nested ones included, each with its type. */
export function allStates(machine: AslMachine): Array<{ name: string; type: string }> {
  return Object.entries(machine.States).flatMap(([name, state]) => [{ name, type: state.Type }, ...innerMachines(state).flatMap(allStates)]);
}

const OPS: Record<string, string> = {
  BooleanEquals: "=",
  StringEquals: "=",
  NumericEquals: "=",
  NumericGreaterThan: ">",
  NumericLessThan: "<",
  NumericGreaterThanEquals: "≥",
  NumericLessThanEquals: "≤",
};

/** `$.writesInFlight` BooleanEquals true → `writesInFlight = true`; `And`/`Or`/`Not` spelt out. */
export function ruleText(rule: Record<string, unknown>): string {
  for (const join of ["And", "Or"] as const) {
    const parts = rule[join];
    if (Array.isArray(parts)) return parts.map((p) => ruleText(p as Record<string, unknown>)).join(join === "And" ? " and " : " or ");
  }
  if (rule.Not && typeof rule.Not === "object") return `not (${ruleText(rule.Not as Record<string, unknown>)})`;
  const variable = String(rule.Variable ?? "").replace(/^\$\.?/, "") || "$";
  for (const [op, value] of Object.entries(rule)) {
    if (op === "Variable" || op === "Next") continue;
    if (op === "IsPresent") return `${variable} ${value ? "present" : "absent"}`;
    return `${variable} ${OPS[op] ?? op} ${typeof value === "string" ? `"${value}"` : String(value)}`;
  }
  return variable;
}

interface Block {
  width: number;
  height: number;
  nodes: GraphNode[];
  edges: GraphEdge[];
}

const shift = (block: Block, dx: number, dy: number): Block => ({
  width: block.width,
  height: block.height,
  nodes: block.nodes.map((n) => ({ ...n, x: n.x + dx, y: n.y + dy })),
  edges: block.edges.map((e) => ({ ...e, points: e.points.map(([x, y]) => [x + dx, y + dy] as [number, number]) })),
});

/** Layers by longest path from `StartAt`; back edges are those that return to a state on the path. */
function layers(machine: AslMachine): { layer: Map<string, number>; order: string[]; back: Set<string> } {
  const names = Object.keys(machine.States);
  const known = new Set(names);
  const succ = (name: string) => transitions(machine.States[name]!).map((t) => t.to).filter((to) => known.has(to));
  const back = new Set<string>();
  const onPath = new Set<string>();
  const seen = new Set<string>();
  const order: string[] = [];
  const post: string[] = [];
  const visit = (name: string) => {
    seen.add(name);
    onPath.add(name);
    order.push(name);
    for (const to of succ(name)) {
      if (onPath.has(to)) back.add(`${name}\u0000${to}`);
      else if (!seen.has(to)) visit(to);
    }
    onPath.delete(name);
    post.push(name);
  };
  for (const root of [machine.StartAt, ...names]) if (known.has(root) && !seen.has(root)) visit(root);
  const layer = new Map(names.map((n) => [n, 0]));
  for (const name of post.reverse()) {
    for (const to of succ(name)) if (!back.has(`${name}\u0000${to}`)) layer.set(to, Math.max(layer.get(to)!, layer.get(name)! + 1));
  }
  return { layer, order, back };
}

function layoutMachine(machine: AslMachine, parent: string | undefined): Block {
  const { layer, order, back } = layers(machine);
  // Each state's own block: a plain box, or a container holding its machines side by side.
  const blocks = new Map<string, Block & { node: GraphNode }>();
  for (const name of order) {
    const state = machine.States[name]!;
    const inner = innerMachines(state).map((m) => layoutMachine(m, name));
    const terminal = state.End === true || state.Type === "Succeed" || state.Type === "Fail";
    const base = { name, type: state.Type, x: 0, y: 0, parent, terminal, ...(typeof state.Comment === "string" ? { comment: state.Comment } : {}) };
    if (!inner.length) {
      blocks.set(name, { width: NODE_WIDTH, height: NODE_HEIGHT, nodes: [], edges: [], node: { ...base, width: NODE_WIDTH, height: NODE_HEIGHT, container: false } });
      continue;
    }
    const width = inner.reduce((w, b) => w + b.width, 0) + H_GAP * (inner.length - 1) + 2 * PAD;
    const height = HEADER + Math.max(...inner.map((b) => b.height)) + PAD;
    let x = PAD;
    const placed = inner.map((b) => {
      const moved = shift(b, x, HEADER);
      x += b.width + H_GAP;
      return moved;
    });
    blocks.set(name, {
      width,
      height,
      nodes: placed.flatMap((b) => b.nodes),
      edges: placed.flatMap((b) => b.edges),
      node: { ...base, width, height, container: true },
    });
  }
  const rows: string[][] = [];
  for (const name of order) (rows[layer.get(name)!] ??= []).push(name);
  const rowsFilled = rows.filter((r) => r && r.length);
  const rowWidth = (row: string[]) => row.reduce((w, n) => w + blocks.get(n)!.width, 0) + H_GAP * (row.length - 1);
  const content = Math.max(...rowsFilled.map(rowWidth));
  const width = content + 2 * GUTTER;
  const pos = new Map<string, GraphNode>();
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  let y = 0;
  const rowOf = new Map<string, { index: number; row: string[] }>();
  for (const row of rowsFilled) {
    let x = GUTTER + (content - rowWidth(row)) / 2;
    const tall = Math.max(...row.map((n) => blocks.get(n)!.height));
    row.forEach((name, index) => {
      const b = blocks.get(name)!;
      const node = { ...b.node, x, y };
      pos.set(name, node);
      rowOf.set(name, { index, row });
      nodes.push(node, ...shift(b, x, y).nodes);
      edges.push(...shift(b, x, y).edges);
      x += b.width + H_GAP;
    });
    y += tall + V_GAP;
  }
  const height = y - V_GAP;
  const rowTop = (name: string) => Math.min(...rowOf.get(name)!.row.map((n) => pos.get(n)!.y));
  const rowBottom = (name: string) => Math.max(...rowOf.get(name)!.row.map((n) => pos.get(n)!.y + pos.get(n)!.height));
  for (const name of order) {
    const from = pos.get(name)!;
    for (const t of transitions(machine.States[name]!)) {
      const to = pos.get(t.to);
      if (!to) continue; // a transition out of this machine: not valid ASL, nothing to draw
      const isBack = back.has(`${name}\u0000${t.to}`);
      const fromCx = from.x + from.width / 2;
      const toCx = to.x + to.width / 2;
      let points: Array<[number, number]>;
      if (isBack || layer.get(t.to)! <= layer.get(name)!) {
        // Up the side the state is on, into the target's side.
        const left = rowOf.get(name)!.index < rowOf.get(name)!.row.length / 2;
        const lane = left ? GUTTER - 2 * LANE : width - GUTTER + 2 * LANE;
        const fromX = left ? from.x : from.x + from.width;
        const toX = left ? to.x : to.x + to.width;
        const fy = from.y + from.height / 2;
        const ty = to.y + to.height / 2;
        points = [[fromX, fy], [lane, fy], [lane, ty], [toX, ty]];
      } else if (layer.get(t.to)! === layer.get(name)! + 1) {
        const mid = rowBottom(name) + V_GAP / 2;
        points = [[fromCx, from.y + from.height], [fromCx, mid], [toCx, mid], [toCx, to.y]];
      } else {
        // Skips layers: to the left gutter (from the side of a row's first state, else under the row),
        // down it, then in from above through the gap over the target's row.
        const lane = GUTTER - LANE;
        const over = rowTop(t.to) - 8;
        const start: Array<[number, number]> =
          rowOf.get(name)!.index === 0
            ? [[from.x, from.y + from.height / 2], [lane, from.y + from.height / 2]]
            : [[fromCx, from.y + from.height], [fromCx, rowBottom(name) + 8], [lane, rowBottom(name) + 8]];
        points = [...start, [lane, over], [toCx, over], [toCx, to.y]];
      }
      edges.push({ from: name, to: t.to, kind: t.kind, ...(t.label ? { label: t.label } : {}), points: dedupe(points), back: isBack });
    }
  }
  return { width, height, nodes, edges };
}

const dedupe = (points: Array<[number, number]>) =>
  points.filter((p, i) => i === 0 || p[0] !== points[i - 1]![0] || p[1] !== points[i - 1]![1]).map(([x, y]) => [round(x), round(y)] as [number, number]);
const round = (n: number) => Math.round(n * 10) / 10;

/** Lays out a whole definition; coordinates start at (0, 0), with a margin around. */
export function layoutStateMachine(definition: AslMachine): StateGraph {
  const margin = 10;
  const block = shift(layoutMachine(definition, undefined), margin, margin);
  return { width: round(block.width + 2 * margin), height: round(block.height + 2 * margin), nodes: block.nodes, edges: block.edges };
}
