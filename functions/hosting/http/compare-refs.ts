import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { ApiError, forbidden, notFound, paramError } from "../../platform/http/errors.js";
import { bool, positiveInt } from "../../platform/http/params.js";
import { baseUrl } from "../../platform/http/urls.js";
import { compareRefs, getCommit } from "../domain/git/index.js";
import { readRepository } from "../domain/read-path.js";
import { findProject, fullPathOf, type Project } from "../domain/projects.js";
import { projectParams } from "./schemas.js";
import { commitView } from "./ref-views.js";
import { codeReader } from "./repository-access.js";

const ref = z.string().check(z.minLength(1), z.maxLength(1024));

/**
 * GitLab's "Compare branches, tags or commits": `commits` are `from..to` oldest first, `commit` the
 * newest of them; `diffs` run from the merge base (`from...to`) or, with `straight`, from `from`.
 * `unidiff` is accepted; diffs are unified either way (as `get-commit-diff`). A ref naming no commit
 * is `404 Ref Not Found`. `from_project_id` names another project of the fork network whose `from`
 * is compared (see `fromOtherProject`).
 */
export const endpoint = defineEndpoint(
  {
    summary: "Compare branches, tags or commits",
    access: "public",
    params: projectParams,
    query: z.object({ from: z.optional(ref), to: z.optional(ref), from_project_id: z.optional(positiveInt()), straight: z.optional(bool()), unidiff: z.optional(bool()) }),
  },
  async ({ c, principal, params, query }) => {
    // Who may read the project comes first (GitLab's `before` block runs before Grape's validation):
    // a caller who may not learns nothing from a 400.
    const { project } = await codeReader(principal, params.id, { denied: "forbidden" });
    const missing = (["from", "to"] as const).filter((key) => query[key] === undefined);
    if (missing.length > 0) throw paramError(missing.map((key) => `${key} is missing`).join(", "));
    const from = query.from_project_id === undefined || query.from_project_id === project.id ? query.from! : await fromOtherProject(principal, project, query.from_project_id, query.from!);
    const comparison = await readRepository("project", project.id, project, (loc) =>
      compareRefs(loc.storage, loc.relativePath, { from, to: query.to!, straight: query.straight ?? false }),
    );
    if (!comparison) throw notFound("Ref");
    const commits = comparison.commits.map((commit) => commitView(c, project, commit));
    return {
      commit: commits.at(-1) ?? null,
      commits,
      diffs: comparison.diffs,
      compare_timeout: comparison.overflow,
      compare_same_ref: comparison.same,
      web_url: `${baseUrl(c)}/${fullPathOf(project)}/-/compare/${comparison.baseSha}...${comparison.headSha}`,
    };
  },
);

/**
 * `from` of `from_project_id`, as the commit it names there. GitLab takes only a project of this
 * project's fork network (400 otherwise) that the caller may read (403). A fork's repository is a
 * full copy of its source's, so the commit is looked up in this repository: a commit the source
 * made after the fork is not here, and answers as an unknown ref.
 */
async function fromOtherProject(principal: Parameters<typeof codeReader>[0], project: Project, otherId: number, from: string): Promise<string> {
  const other = await findProject(otherId);
  if (!other || (await forkRoot(other)) !== (await forkRoot(project))) {
    throw new ApiError(400, { message: `Target project id:${otherId} is not a fork of project id:${project.id}` });
  }
  const readable = await codeReader(principal, String(otherId)).catch(() => undefined);
  if (!readable) throw forbidden("You don't have access to this fork's parent project");
  const commit = await readRepository("project", other.id, other, (loc) => getCommit(loc.storage, loc.relativePath, from));
  if (!commit) throw notFound("Ref");
  return commit.id;
}

/** The project a fork chain starts from (GitLab's fork network root); fork chains are short. */
async function forkRoot(project: Project): Promise<number> {
  let current = project;
  for (let depth = 0; current.forkedFromId && depth < 20; depth++) {
    const source = await findProject(current.forkedFromId);
    if (!source) break;
    current = source;
  }
  return current.id;
}
export const handler = lambda(endpoint);
