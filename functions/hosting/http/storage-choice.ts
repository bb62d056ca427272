/** `repository_storage` on project create and update: one of the configured storages (GitLab's inclusion check). */
import { storageNames } from "../../platform/config.js";
import { validationError } from "../../platform/http/errors.js";

export function configuredStorage(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  if (!storageNames().includes(name)) throw validationError({ repository_storage: ["is not included in the list"] });
  return name;
}
