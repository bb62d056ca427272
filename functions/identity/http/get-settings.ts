import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { storageWeights } from "../domain/settings.js";

export const endpoint = defineEndpoint({ summary: "Application settings (admin)", access: "read", admin: true }, async () =>
  settingsView(await storageWeights()),
);
export const handler = lambda(endpoint);

export function settingsView(weights: Record<string, number>) {
  return {
    repository_storages_weighted: weights,
    // The pre-13.1 array form, still read by some clients: storages with a positive weight.
    repository_storages: Object.entries(weights)
      .filter(([, w]) => w > 0)
      .map(([name]) => name),
  };
}
