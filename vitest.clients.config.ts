import { defineConfig } from "vitest/config";
import base from "./vitest.config.js";

/**
 * `npm run test:clients`: suites that drive other languages' GitLab and Sentry clients, installed
 * from the machine's packages (see test/clients/tools.ts), and a Python client generated from the
 * academic Swagger documents, against the one-process runtime.
 * `npm test` covers everything else.
 */
const { projects: _projects, ...shared } = base.test ?? {};
export default defineConfig({
  test: { ...shared, include: ["test/clients/**/*.test.ts"], globalSetup: ["test/support/global-setup.ts"] },
});
