import { z } from "zod";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { int } from "../../platform/http/params.js";
import { storageNames } from "../../platform/config.js";
import { paramError } from "../../platform/http/errors.js";
import { saveStorageWeights } from "../domain/settings.js";
import { settingsView } from "./get-settings.js";

/**
 * The JSON hash (`{"repository_storages_weighted":{"default":0,"fast":100}}`), or GitLab's bracket
 * form (`repository_storages_weighted[fast]=100`), which the platform's form parser nests the same way.
 */
const weightsBody = z
  .strictObject({ repository_storages_weighted: z.record(z.string(), int().pipe(z.number().min(0).max(100))).optional() })
  .transform((b) => b.repository_storages_weighted ?? {});

export const endpoint = defineEndpoint(
  { summary: "Update application settings (admin)", access: "write", admin: true, body: weightsBody },
  async ({ body }) => {
    const unknown = Object.keys(body).filter((name) => !storageNames().includes(name));
    if (unknown.length) throw paramError(`repository_storages_weighted does not have a valid value (unknown storage: ${unknown.join(", ")})`);
    return settingsView(await saveStorageWeights(body));
  },
);
export const handler = lambda(endpoint);
