import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "functions/**/*.test.ts"],
    // Other languages' clients need the machine's packages: `npm run test:clients`.
    exclude: ["test/clients/**", "**/node_modules/**"],
    globalSetup: ["test/support/global-setup.ts"],
    setupFiles: ["test/support/worker-env.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
  },
});
