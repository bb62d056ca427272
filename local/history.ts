/**
 * An execution's event history in the shape AWS Step Functions gives it (`GetExecutionHistory`:
 * `HistoryEvent` with `id`, `previousEventId`, `timestamp`, `type` and the type's `…EventDetails`),
 * made from the events `aws-local-stepfunctions` reports while it runs an execution. So
 * `aws stepfunctions get-execution-history` against the local endpoint shows what the console would.
 *
 * Mapped: execution start/end (a restarted run of an interrupted execution adds `ExecutionRedriven`),
 * `<Type>StateEntered`/`<Type>StateExited` for every state (a Task also `TaskSucceeded`/`TaskFailed`
 * with its output or error and cause), Map iterations. The runner's retry and catch notices have no
 * AWS counterpart: a retried Task shows as `TaskFailed` and is entered again, as on AWS.
 */
import type { StateMachine } from "aws-local-stepfunctions";

/** The runner's event type (the package declares it without exporting it). */
type EventLog = ReturnType<StateMachine["run"]>["eventLogs"] extends AsyncGenerator<infer E> ? E : never;

export interface HistoryEvent {
  id: number;
  previousEventId: number;
  /** Epoch seconds, as the JSON protocol carries timestamps. */
  timestamp: number;
  type: string;
  [details: string]: unknown;
}

const ROLE = "arn:aws:iam::000000000000:role/StepFunctionsLocal";
const LAMBDA = { resourceType: "lambda", resource: "invoke" };
const json = (value: unknown) => JSON.stringify(value ?? null);
const text = (value: unknown) => (typeof value === "string" ? value : json(value));

type Detail = [type: string, details: Record<string, unknown>];

function describe(event: EventLog, redrive: boolean): Detail[] {
  switch (event.type) {
    case "ExecutionStarted":
      return redrive
        ? [["ExecutionRedriven", { executionRedrivenEventDetails: { redriveCount: 1 } }]]
        : [["ExecutionStarted", { executionStartedEventDetails: { input: json(event.input), inputDetails: { truncated: false }, roleArn: ROLE } }]];
    case "ExecutionSucceeded":
      return [["ExecutionSucceeded", { executionSucceededEventDetails: { output: json(event.output), outputDetails: { truncated: false } } }]];
    case "ExecutionFailed":
      return [["ExecutionFailed", { executionFailedEventDetails: { error: event.Error, cause: text(event.Cause) } }]];
    case "ExecutionAborted":
      return [["ExecutionAborted", { executionAbortedEventDetails: {} }]];
    case "ExecutionTimeout":
      return [["ExecutionTimedOut", { executionTimedOutEventDetails: {} }]];
    case "StateEntered":
      return [[`${event.state.type}StateEntered`, { stateEnteredEventDetails: { name: event.state.name, input: json(event.state.input), inputDetails: { truncated: false } } }]];
    case "StateExited": {
      const exited: Detail = [`${event.state.type}StateExited`, { stateExitedEventDetails: { name: event.state.name, output: json(event.state.output), outputDetails: { truncated: false } } }];
      return event.state.type === "Task" ? [["TaskSucceeded", { taskSucceededEventDetails: { ...LAMBDA, output: json(event.state.output), outputDetails: { truncated: false } } }], exited] : [exited];
    }
    case "StateFailed":
      if (event.state.type === "Task") return [["TaskFailed", { taskFailedEventDetails: { ...LAMBDA, error: event.Error, cause: text(event.Cause) } }]];
      if (event.state.type === "Map" || event.state.type === "Parallel") return [[`${event.state.type}StateFailed`, {}]];
      return [];
    case "MapIterationStarted":
    case "MapIterationSucceeded":
    case "MapIterationFailed": {
      const key = `${event.type[0]!.toLowerCase()}${event.type.slice(1)}EventDetails`;
      return [[event.type, { [key]: { name: event.parentState.name, index: event.index } }]];
    }
    default:
      return [];
  }
}

/** The AWS events for one runner event, numbered on from `earlier` (this execution's events so far). */
export function historyEvents(event: EventLog, earlier: readonly HistoryEvent[]): HistoryEvent[] {
  const redrive = earlier.some((e) => e.type === "ExecutionStarted");
  let last = earlier.at(-1)?.id ?? 0;
  return describe(event, redrive).map(([type, details]) => {
    const id = last + 1;
    const out: HistoryEvent = { id, previousEventId: last, timestamp: event.timestamp / 1000, type, ...details };
    last = id;
    return out;
  });
}

/** `includeExecutionData: false`: the events without their inputs, outputs, errors and causes. */
export function withoutData(event: HistoryEvent): HistoryEvent {
  const stripped: HistoryEvent = { ...event };
  for (const [key, value] of Object.entries(event)) {
    if (!key.endsWith("EventDetails") || !value || typeof value !== "object") continue;
    stripped[key] = Object.fromEntries(Object.entries(value).filter(([k]) => !["input", "output", "cause", "error", "parameters"].includes(k)));
  }
  return stripped;
}
