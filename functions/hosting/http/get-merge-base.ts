import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { ApiError, notFound, paramError } from "../../platform/http/errors.js";
import { parseFormParams } from "../../platform/http/form.js";
import { baseUrl } from "../../platform/http/urls.js";
import { mergeBase } from "../domain/git/index.js";
import { readRepository } from "../domain/read-path.js";
import { fullPathOf } from "../domain/projects.js";
import { projectParams } from "./schemas.js";
import { readableProject } from "./repository-access.js";

const ref = z.string().check(z.minLength(1), z.maxLength(1024));
/**
 * `refs` is an array (`refs[]=a&refs[]=b`, as GitLab documents) or comma-separated (`refs=a,b`, as
 * python-gitlab sends it): Grape's `CommaSeparatedToArray` takes both.
 */
const mergeBaseQuery = z.object({ refs: z.union([ref, z.array(ref).check(z.maxLength(100))]) });

/**
 * GitLab's "Merge base": the common ancestor of two or more refs. Fewer than two: 400
 * `Provide at least 2 refs`; refs naming no commit: 400 `Could not find ref(s): …`; histories that
 * never meet: `404 Merge Base Not Found`.
 */
export const endpoint = defineEndpoint(
  { summary: "Common ancestor of refs", access: "public", params: projectParams },
  async ({ c, principal, params }) => {
    // Who may read the project comes first: a caller who may not learns nothing from a 400.
    const project = await readableProject(principal, params.id);
    // The query holds an array, which the route's single-valued query cannot: read it as a form.
    const raw = parseFormParams([...new URL(c.req.url).searchParams.entries()].filter(([k]) => k === "refs" || k === "refs[]"));
    if (raw.refs === undefined) throw paramError("refs is missing");
    const query = z.parse(mergeBaseQuery, raw);
    const refs = (typeof query.refs === "string" ? [query.refs] : query.refs).flatMap((r) => r.split(",")).filter((r) => r !== "");
    if (refs.length < 2) throw new ApiError(400, { message: "Provide at least 2 refs" });
    const result = await readRepository("project", project.id, project, (loc) => mergeBase(loc.storage, loc.relativePath, refs));
    if (result.unknown.length > 0) {
      throw new ApiError(400, { message: `Could not find ${result.unknown.length === 1 ? "ref" : "refs"}: ${result.unknown.join(", ")}` });
    }
    if (!result.commit) throw notFound("Merge Base");
    return { ...result.commit, web_url: `${baseUrl(c)}/${fullPathOf(project)}/-/commit/${result.commit.id}` };
  },
);
export const handler = lambda(endpoint);
