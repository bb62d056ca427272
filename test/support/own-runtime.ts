/**
 * A private runtime for a test file whose actions are instance-wide (storage weights, instance
 * configuration) and would disturb the shared one. Each test file runs in its own worker process,
 * so the environment it sets stays local to the file.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startRuntime, defaultLocalConfig, type Runtime } from "../../local/runtime.js";

export async function ownRuntime(overrides: Record<string, unknown> = {}): Promise<{ runtime: Runtime; dataDir: string; stop: () => Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), "forgeline-own-"));
  const runtime = await startRuntime({ dataDir, persistent: false, config: { ...defaultLocalConfig(dataDir), ...overrides }, crons: false });
  return {
    runtime,
    dataDir,
    stop: async () => {
      await runtime.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
