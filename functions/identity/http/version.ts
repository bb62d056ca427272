import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";

/** GitLab answers `/version` to any authenticated caller; clients use it to detect the API level. */
export const endpoint = defineEndpoint({ summary: "Instance version", access: "read" }, async () => ({
  version: "16.11.0-forgeline",
  revision: process.env.FORGELINE_REVISION ?? "local",
  kas: { enabled: false, externalUrl: null, version: null },
  enterprise: false,
}));
export const handler = lambda(endpoint);
