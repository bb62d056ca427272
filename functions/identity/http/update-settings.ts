import * as z from "zod";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { int } from "../../platform/http/params.js";
import { storageNames } from "../../platform/config.js";
import { paramError } from "../../platform/http/errors.js";
import { saveStorageWeights } from "../domain/settings.js";
import { settingsView } from "./get-settings.js";

/**
 * Accepts the JSON hash form (`{"repository_storages_weighted":{"default":0,"fast":100}}`) and
 * GitLab's bracket form (`repository_storages_weighted[fast]=100`) used by form-encoded clients.
 */
const weightsBody = z
  .record(z.string(), z.unknown())
  .transform((raw, ctx) => {
    const weights: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(raw)) {
      const bracket = /^repository_storages_weighted\[(.+)\]$/.exec(key);
      if (key === "repository_storages_weighted" && value && typeof value === "object") Object.assign(weights, value);
      else if (bracket?.[1]) weights[bracket[1]] = value;
      else ctx.addIssue({ code: "unrecognized_keys", keys: [key], input: raw });
    }
    return weights;
  })
  .pipe(z.record(z.string(), int().pipe(z.number().min(0).max(100))));

export const endpoint = defineEndpoint(
  { summary: "Update application settings (admin)", access: "write", admin: true, body: weightsBody },
  async ({ body }) => {
    const unknown = Object.keys(body).filter((name) => !storageNames().includes(name));
    if (unknown.length) throw paramError(`repository_storages_weighted does not have a valid value (unknown storage: ${unknown.join(", ")})`);
    return settingsView(await saveStorageWeights(body));
  },
);
export const handler = lambda(endpoint);
