/** Gives each test worker the environment of the runtime started by global-setup.ts. */
import { inject } from "vitest";
import { resetInstanceConfig } from "../../functions/platform/config.js";

for (const [k, v] of Object.entries(inject("env"))) process.env[k] = v;
resetInstanceConfig();
