import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { languageShares } from "../domain/git/index.js";
import { readRepository } from "../domain/read-path.js";
import { projectParams } from "./schemas.js";
import { codeReader } from "./repository-access.js";

/** GitLab's "List programming languages used": `{"Ruby": 66.69, …}` of the default branch (`languages.ts`). */
export const endpoint = defineEndpoint({ summary: "Programming languages used", access: "public", params: projectParams }, async ({ principal, params }) => {
  const { project } = await codeReader(principal, params.id, { denied: "forbidden" });
  return readRepository("project", project.id, project, (loc) => languageShares(loc.storage, loc.relativePath));
});
export const handler = lambda(endpoint);
