import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { notFound } from "../../platform/http/errors.js";
import { idOrPath } from "../../platform/http/params.js";
import { readBlobById } from "../domain/git/index.js";
import { readRepository } from "../domain/read-path.js";
import { readableProject } from "./repository-access.js";
import { rawText } from "./raw-content.js";

export const blobParams = z.object({ id: idOrPath(), sha: z.string().check(z.minLength(1), z.maxLength(64)) });

/** GitLab's "Raw blob content": the bytes, as the raw file route sends them; `404 Blob Not Found` otherwise. */
export const endpoint = defineEndpoint({ summary: "Raw blob content", access: "public", params: blobParams }, async ({ c, principal, params }) => {
  const project = await readableProject(principal, params.id);
  const blob = await readRepository("project", project.id, project, (loc) => readBlobById(loc.storage, loc.relativePath, params.sha));
  if (!blob) throw notFound("Blob");
  return rawText(c, blob.content);
});
export const handler = lambda(endpoint);
