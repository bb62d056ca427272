import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { notFound } from "../../platform/http/errors.js";
import { bool } from "../../platform/http/params.js";
import { commitSequence } from "../domain/git/index.js";
import { readRepository } from "../domain/read-path.js";
import { commitParams } from "./commit-schemas.js";
import { codeReader } from "./repository-access.js";

/** GitLab's "Get the sequence of a commit": `git rev-list --count [--first-parent] <sha>` as `{count}`. */
export const endpoint = defineEndpoint(
  { summary: "Number of commits leading to a commit", access: "public", params: commitParams, query: z.object({ first_parent: z.optional(bool()) }) },
  async ({ principal, params, query }) => {
    const { project } = await codeReader(principal, params.id, { denied: "forbidden" });
    const count = await readRepository("project", project.id, project, (loc) => commitSequence(loc.storage, loc.relativePath, params.sha, { firstParent: query.first_parent }));
    if (count === undefined) throw notFound("Commit");
    return { count };
  },
);
export const handler = lambda(endpoint);
