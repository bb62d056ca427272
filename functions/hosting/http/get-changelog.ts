import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { paramError } from "../../platform/http/errors.js";
import { releaseNotes } from "../domain/changelog/generate.js";
import { readRepository } from "../domain/read-path.js";
import { projectParams } from "./schemas.js";
import { changelogFailure, changelogRequest, releaseParams } from "./changelog-params.js";
import { codeReader } from "./repository-access.js";

/** GitLab's "Generate changelog data": the release section as `{"notes": …}`, nothing committed (`generate.ts`). */
export const endpoint = defineEndpoint(
  { summary: "Generate changelog data", access: "public", params: projectParams, query: z.object({ ...releaseParams, version: z.optional(releaseParams.version) }) },
  async ({ principal, params, query }) => {
    // Who may read the project comes first, as GitLab's `before` block runs before Grape's validation.
    const { project } = await codeReader(principal, params.id, { denied: "forbidden" });
    const version = query.version;
    if (version === undefined) throw paramError("version is missing");
    const request = changelogRequest(project, { ...query, version }, project.defaultBranch);
    const notes = await readRepository("project", project.id, project, (loc) => releaseNotes(loc, request)).catch(changelogFailure);
    return { notes };
  },
);
export const handler = lambda(endpoint);
