/**
 * The console's drawing of the storage-move state machine: generated from `storage-move.asl.json`,
 * the file the executions run, read here from disk as the runtime reads it. Every state is drawn,
 * nested ones (the Map's item processor, the Parallel's branches) inside their container; every
 * transition is an edge between the two; nothing is hard-coded (a state added to the definition
 * appears, one removed goes); states do not overlap.
 */
import { describe, it, expect } from "vitest";
import { readFileSync } from "node:fs";
import { STORAGE_MOVE_ASL } from "../../local/runtime.js";
import { layoutStateMachine, type AslMachine } from "../../functions/moves/domain/asl-graph.js";
import { stateMachineSvg } from "../../functions/web/admin/ui/state-machine-svg.js";
import { STORAGE_MOVE_DEFINITION } from "../../functions/moves/domain/storage-move-definition.js";

type State = Record<string, any>;
const definition = JSON.parse(readFileSync(STORAGE_MOVE_ASL, "utf8")) as AslMachine;

/** Every state of a definition, nested ones included, with its container: read independently of the code under test. */
function statesOf(def: State, parent?: string): Array<{ name: string; parent?: string; state: State }> {
  return Object.entries(def.States as Record<string, State>).flatMap(([name, state]) => [
    { name, parent, state },
    ...[state.ItemProcessor, state.Iterator, ...(state.Branches ?? [])].filter(Boolean).flatMap((nested: State) => statesOf(nested, name)),
  ]);
}

/** Every transition: Next, each Choice's Next, Default, each Catch's Next. */
const transitionsOf = (state: State): string[] => [state.Next, ...(state.Choices ?? []).map((c: State) => c.Next), state.Default, ...(state.Catch ?? []).map((c: State) => c.Next)].filter(Boolean);

const draw = (def: AslMachine) => {
  const graph = layoutStateMachine(def);
  return { graph, svg: stateMachineSvg(graph, { id: "sm", title: "t", description: "d" }) };
};

/** The names of the states drawn, each with the text written in it. */
const drawnStates = (svg: string) =>
  [...svg.matchAll(/<g class="state[^"]*" data-state="([^"]+)" data-type="([^"]+)"[^>]*>.*?<text class="name"[^>]*>([^<]*)/g)].map((m) => ({ name: m[1]!, type: m[2]!, text: m[3]! }));

const inside = (a: { x: number; y: number; width: number; height: number }, b: { x: number; y: number; width: number; height: number }) =>
  a.x >= b.x && a.y >= b.y && a.x + a.width <= b.x + b.width && a.y + a.height <= b.y + b.height;
const overlap = (a: { x: number; y: number; width: number; height: number }, b: { x: number; y: number; width: number; height: number }) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const onBorder = ([x, y]: [number, number], n: { x: number; y: number; width: number; height: number }) =>
  x >= n.x - 0.1 && x <= n.x + n.width + 0.1 && y >= n.y - 0.1 && y <= n.y + n.height + 0.1 &&
  (Math.abs(x - n.x) < 0.2 || Math.abs(x - n.x - n.width) < 0.2 || Math.abs(y - n.y) < 0.2 || Math.abs(y - n.y - n.height) < 0.2);

describe("the state machine drawing", () => {
  it("is drawn from the file the state machine runs", () => {
    expect(STORAGE_MOVE_DEFINITION).toEqual(definition);
  });

  it("draws every state of storage-move.asl.json, nested ones included, once, with its name and type", () => {
    const { svg } = draw(definition);
    const expected = statesOf(definition);
    expect(expected.length).toBeGreaterThan(20);
    expect(expected.filter((s) => s.parent).length).toBeGreaterThan(10);
    const drawn = drawnStates(svg);
    const missing = expected.filter((s) => !drawn.some((d) => d.name === s.name && d.text === s.name && d.type === s.state.Type)).map((s) => s.name);
    expect(missing).toEqual([]);
    expect(drawn.map((d) => d.name).sort()).toEqual(expected.map((s) => s.name).sort());
  });

  it("draws every transition as an edge from its state to its target", () => {
    const { graph, svg } = draw(definition);
    const expected = statesOf(definition).flatMap(({ name, state }) => transitionsOf(state).map((to) => `${name} → ${to}`));
    const edges = [...svg.matchAll(/<path class="edge[^"]*" data-from="([^"]+)" data-to="([^"]+)"/g)].map((m) => `${m[1]} → ${m[2]}`);
    expect(edges.sort()).toEqual(expected.sort());
    const node = (name: string) => graph.nodes.find((n) => n.name === name)!;
    for (const e of graph.edges) {
      expect(onBorder(e.points[0]!, node(e.from)), `${e.from} → ${e.to} starts on ${e.from}`).toBe(true);
      expect(onBorder(e.points.at(-1)!, node(e.to)), `${e.from} → ${e.to} ends on ${e.to}`).toBe(true);
    }
  });

  it("puts nested states inside their container, and no two states on top of each other", () => {
    const { graph } = draw(definition);
    const byName = new Map(graph.nodes.map((n) => [n.name, n]));
    for (const s of statesOf(definition)) {
      expect(byName.get(s.name)!.parent).toBe(s.parent);
      if (s.parent) expect(inside(byName.get(s.name)!, byName.get(s.parent)!), `${s.name} in ${s.parent}`).toBe(true);
    }
    const plain = graph.nodes.filter((n) => !n.container);
    for (const [i, a] of plain.entries()) for (const b of plain.slice(i + 1)) expect(overlap(a, b), `${a.name} and ${b.name}`).toBe(false);
    for (const n of graph.nodes) expect(inside(n, { x: 0, y: 0, width: graph.width, height: graph.height })).toBe(true);
  });

  it("follows the definition, whatever it holds: a state added to it is drawn, one taken out is not", () => {
    const changed = structuredClone(definition) as State;
    const map = changed.States.MoveAndScheduleNext.Branches[0].States.MoveRepositories.ItemProcessor;
    map.States.VerifyAgain = { Type: "Pass", Next: "SwitchStorage" };
    map.States.Replicate.Next = "VerifyAgain";
    delete changed.States.MoveDone;
    changed.States.AfterMoves.Default = "MoveFailed";
    const { graph, svg } = draw(changed as AslMachine);
    const names = drawnStates(svg).map((d) => d.name);
    expect(names).toContain("VerifyAgain");
    expect(names).not.toContain("MoveDone");
    expect(graph.nodes.find((n) => n.name === "VerifyAgain")!.parent).toBe("MoveRepositories");
    expect(graph.edges.filter((e) => e.to === "VerifyAgain" || e.from === "VerifyAgain").map((e) => `${e.from} → ${e.to}`).sort()).toEqual(["Replicate → VerifyAgain", "VerifyAgain → SwitchStorage"]);
  });

  it("is well-formed SVG the pages' policy allows: no script, no style attribute, every text escaped", () => {
    const tricky = { StartAt: 'A<b>"&', States: { 'A<b>"&': { Type: "Pass", Comment: "<script>alert(1)</script>", End: true } } } as AslMachine;
    const { svg } = draw(tricky);
    expect(svg).not.toMatch(/<script|style=|<b>/);
    expect(svg).toContain('data-state="A&lt;b&gt;&quot;&amp;"');
    const { svg: full } = draw(definition);
    expect(full).not.toMatch(/<script|style=/);
    expect(full.match(/<g\b/g)!.length).toBe(full.match(/<\/g>/g)!.length);
    expect(full.match(/<text\b/g)!.length).toBe(full.match(/<\/text>/g)!.length);
    expect(full).toMatch(/^<svg [^>]*role="img" aria-labelledby="sm-title" aria-describedby="sm-desc"/);
  });
});
