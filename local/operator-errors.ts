/**
 * Mistakes an operator can make when running the local commands (`npm start`, `npm run backup`,
 * `retention`, …): each is reported as one line that says what happened and the command that fixes
 * it, with a non-zero exit code and no stack trace (`LOG_LEVEL=debug` shows it). Anything else is a
 * bug or an infrastructure failure: one line too, plus how to see the details.
 */

export class OperatorError extends Error {
  constructor(
    /** What happened, as one sentence. */
    what: string,
    /** What to run or do about it. */
    readonly fix?: string,
  ) {
    super(fix ? `${what}. ${fix}` : what);
    this.name = "OperatorError";
  }
}

/** The command the operator typed, to put into a suggested fix (`npm start`, `npm run retention`). */
export function invokedAs(): string {
  const script = process.env.npm_lifecycle_event;
  if (!script) return "npm start";
  return script === "start" || script === "test" ? `npm ${script}` : `npm run ${script}`;
}

/** Prints `err` for an operator and returns the exit code to use. */
export function reportFatal(err: unknown, write: (line: string) => void = (l) => console.error(l)): number {
  const debug = process.env.LOG_LEVEL === "debug";
  if (err instanceof OperatorError) {
    write(`Error: ${oneLine(err.message)}`);
    if (debug) write(err.stack ?? "");
    return 1;
  }
  const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  write(`Error: ${oneLine(message)}${debug ? "" : " (run again with LOG_LEVEL=debug for the details)"}`);
  if (debug && err instanceof Error) write(err.stack ?? "");
  return 1;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").trim();
}
