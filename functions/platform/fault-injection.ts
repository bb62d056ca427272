/**
 * A seam for fault-injection tests: a test running the code in its own process can make a named
 * point throw (or crash, or hang) — a state-machine task before or after its work, a copy once it is
 * written, a write while it holds a ref's lock. Nothing sets it outside tests; unset, it costs one
 * comparison per point.
 */
export type FaultPhase = "before" | "after" | "copied" | "deleting" | "fence";
export type FaultInjector = (point: string, phase: FaultPhase, input: unknown) => void | Promise<void>;

let injector: FaultInjector | undefined;

export function injectFaults(fn: FaultInjector | undefined): void {
  injector = fn;
}

export async function faultPoint(point: string, phase: FaultPhase, input: unknown): Promise<void> {
  if (injector) await injector(point, phase, input);
}
