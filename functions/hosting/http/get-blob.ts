import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { notFound } from "../../platform/http/errors.js";
import { readBlobById } from "../domain/git/index.js";
import { readRepository } from "../domain/read-path.js";
import { blobParams } from "./raw-blob.js";
import { readableProject } from "./repository-access.js";

/** GitLab's "Get a blob from repository": size, base64 content and id; `404 Blob Not Found` otherwise. */
export const endpoint = defineEndpoint({ summary: "Get a blob", access: "public", params: blobParams }, async ({ principal, params }) => {
  const project = await readableProject(principal, params.id);
  const blob = await readRepository("project", project.id, project, (loc) => readBlobById(loc.storage, loc.relativePath, params.sha));
  if (!blob) throw notFound("Blob");
  return { size: blob.content.length, encoding: "base64", content: blob.content.toString("base64"), sha: blob.id };
});
export const handler = lambda(endpoint);
