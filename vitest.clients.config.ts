import { defineConfig } from "vitest/config";
import base from "./vitest.config.js";

/**
 * `npm run test:clients`: suites that drive other languages' GitLab and Sentry clients, installed
 * from the machine's packages (see test/clients/tools.ts). `npm test` covers everything else.
 */
export default defineConfig({ test: { ...base.test, include: ["test/clients/**/*.test.ts"], exclude: ["**/node_modules/**"] } });
