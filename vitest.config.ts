import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import LongRunningFirst from "./test/support/sequencer.js";

/**
 * Two projects. "default": every test against one runtime with all functions in one process (the
 * fast mode). "isolated": the suites that prove the product as it deploys — the README walk-through
 * and docs/operators.md's storage-move procedure, the @sentry/node end to end, the academic permissions table, the route
 * matrix, the bundle sizes and test/isolated/ — against `npm start -- --isolated`, where each
 * function runs from its Lambda bundle in its own process with only its links. Both run in `npm test`.
 */
/**
 * The two type checks (tsc over the project and over the infrastructure) give the same verdict on
 * any Node version, so CI runs them once, in the Node 22 suite: `.ci/run` sets this variable for the
 * other. (vitest's `--exclude` on the command line does not reach files a project's `include` lists.)
 */
const typeChecks = process.env.FORGELINE_SKIP_TYPECHECKS === "1" ? ["test/platform/typecheck.test.ts", "test/infra/typecheck.test.ts"] : [];

const isolatedSuites = [
  "test/isolated/**/*.test.ts",
  "test/readme.test.ts",
  "test/moves/readme-procedure.test.ts",
  "test/errortracking/sentry-sdk.test.ts",
  "test/academic/permisos.test.ts",
  "test/platform/route-matrix.test.ts",
  "test/platform/bundle-size.test.ts",
];

export default defineConfig({
  test: {
    setupFiles: ["test/support/worker-env.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // expect.poll waits for a state to appear (a page after a click, a queue drained); vitest's 1 s
    // default is a wall-clock limit in disguise, and a loaded 2-core machine misses it.
    expect: { poll: { timeout: 20_000 } },
    pool: "forks",
    // One worker per core, not vitest's cores − 1: test files spend much of their time waiting on
    // other processes (DynamoDB Local, git, Lambda processes in isolated mode, runtimes of their own).
    maxWorkers: Math.max(2, availableParallelism()),
    sequence: { sequencer: LongRunningFirst },
    projects: [
      {
        extends: true,
        test: {
          name: "default",
          include: ["test/**/*.test.ts", "functions/**/*.test.ts"],
          // Other languages' clients need the machine's packages: `npm run test:clients`.
          exclude: ["test/isolated/**", "test/clients/**", "test/platform/bundle-size.test.ts", "**/node_modules/**", ...typeChecks],
          globalSetup: ["test/support/global-setup.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "isolated",
          include: isolatedSuites,
          globalSetup: ["test/support/global-setup-isolated.ts"],
          // Cold starts of up to 24 function processes share the machine with the default project.
          testTimeout: 180_000,
          hookTimeout: 600_000,
        },
      },
    ],
  },
});
