/**
 * The Lambda adapter of a state-machine task: a request-id log scope, one log line per failure, and
 * errors named so the ASL's retriers can tell a transient failure from a final one (see
 * `domain/errors.ts`), and the data folder's space reserve (`platform/space-reserve.ts`). The input
 * is the state's input; the return value is its result.
 */
import { randomUUID } from "node:crypto";
import type { Context } from "aws-lambda";
import { describeError, log, withRequestId } from "../../platform/log.js";
import { classifyError } from "../domain/errors.js";
import { faultPoint } from "../domain/fault-injection.js";
import { withReservedSpace } from "../../platform/space-reserve.js";

export function moveTask<I, O>(name: string, run: (input: I) => Promise<O>) {
  return (input: I, context?: Pick<Context, "awsRequestId">): Promise<O> =>
    withRequestId(context?.awsRequestId ?? randomUUID(), async () => {
      try {
        await faultPoint(name, "before", input);
        // A move off a full storage is how room is made: it runs with the space reserve.
        const output = await withReservedSpace(() => run(input));
        await faultPoint(name, "after", input);
        return output;
      } catch (err) {
        const classified = classifyError(err);
        log.warn("storage move task failed", { task: name, ...describeError(classified) });
        throw classified;
      }
    });
}
