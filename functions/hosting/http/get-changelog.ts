import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { releaseNotes } from "../domain/changelog/generate.js";
import { readRepository } from "../domain/read-path.js";
import { projectParams } from "./schemas.js";
import { changelogFailure, changelogRequest, releaseParams } from "./changelog-params.js";
import { codeReader } from "./repository-access.js";

/** GitLab's "Generate changelog data": the release section as `{"notes": …}`, nothing committed (`generate.ts`). */
export const endpoint = defineEndpoint(
  { summary: "Generate changelog data", access: "public", params: projectParams, query: z.object(releaseParams) },
  async ({ principal, params, query }) => {
    const { project } = await codeReader(principal, params.id, { denied: "forbidden" });
    const notes = await readRepository("project", project.id, project, (loc) => releaseNotes(loc, changelogRequest(project, query, project.defaultBranch))).catch(changelogFailure);
    return { notes };
  },
);
export const handler = lambda(endpoint);
