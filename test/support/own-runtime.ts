/**
 * A private runtime for a test file whose actions are instance-wide (storage weights, instance
 * configuration) and would disturb the shared one. Each test file runs in its own worker process,
 * so the environment it sets stays local to the file.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startRuntime, defaultLocalConfig, type Runtime, type RuntimeOptions } from "../../local/runtime.js";

/** `overrides`: instance configuration; `options`: how the runtime runs (say, `isolated`). */
export async function ownRuntime(
  overrides: Record<string, unknown> = {},
  options: Pick<RuntimeOptions, "isolated"> = {},
): Promise<{ runtime: Runtime; dataDir: string; stop: () => Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), "forgeline-own-"));
  const runtime = await startRuntime({ dataDir, persistent: false, config: { ...defaultLocalConfig(dataDir), ...overrides }, crons: false, ...options });
  return {
    runtime,
    dataDir,
    stop: async () => {
      await runtime.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
