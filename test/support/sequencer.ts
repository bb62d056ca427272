/**
 * The order test files start in. Two workers share the machine (vitest.config.ts); a run lasts as
 * long as its busiest worker, so the files that take minutes — they start runtimes of their own, kill
 * them, or cold-start a hundred Lambda processes — start first, whichever project they belong to, and
 * the short ones fill in around them. Vitest's own order keeps projects apart and, without the
 * durations of an earlier run (a clean clone has none), starts larger files first.
 */
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** Longest first, as measured on 2 cores; a file missing here keeps vitest's order after these. */
export const LONG_RUNNING = [
  "test/backup/round-trip.test.ts",
  "test/backup/atomic-restore.test.ts",
  "test/moves/crash-matrix.test.ts",
  "test/platform/route-matrix.test.ts",
  "test/moves/readme-procedure.test.ts",
  "test/platform/runtime.test.ts",
  "test/platform/stop-signals.test.ts",
  "test/platform/sqs-journal.test.ts",
  "test/moves/process-crash.test.ts",
  "test/platform/operator-errors.test.ts",
  "test/errortracking/sentry-sdk.test.ts",
  "test/platform/gitlab-doc-examples.test.ts",
  "test/infra/typecheck.test.ts",
  "test/platform/typecheck.test.ts",
];

export default class LongRunningFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const i = LONG_RUNNING.indexOf(relative(spec.project.config.root, spec.moduleId));
      return i === -1 ? LONG_RUNNING.length : i;
    };
    // Array#sort is stable: within a rank (and among the rest) vitest's order stays.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
