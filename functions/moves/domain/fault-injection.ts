/**
 * A seam for fault-injection tests, like `replicate`'s `beforeVerify`: a test running the state
 * machine in its own process can make any task step throw (or crash, or hang) before or after its
 * work. Nothing sets it outside tests; unset, it costs one comparison per step.
 */
export type FaultPhase = "before" | "after";
export type FaultInjector = (task: string, phase: FaultPhase, input: unknown) => void | Promise<void>;

let injector: FaultInjector | undefined;

export function injectMoveFaults(fn: FaultInjector | undefined): void {
  injector = fn;
}

export async function faultPoint(task: string, phase: FaultPhase, input: unknown): Promise<void> {
  if (injector) await injector(task, phase, input);
}
