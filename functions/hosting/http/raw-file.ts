import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { idOrPath } from "../../platform/http/params.js";
import { notFound } from "../../platform/http/errors.js";
import { readFile } from "../domain/git/index.js";
import { readRepository } from "../domain/read-path.js";
import { readableProject } from "./repository-access.js";
import { rawText } from "./raw-content.js";

/** `file_path` is URL-encoded (`dir%2Ffile.txt`); `ref` defaults to the default branch. */
export const endpoint = defineEndpoint(
  {
    summary: "Raw file content",
    access: "read",
    params: z.object({ id: idOrPath(), file_path: z.string().check(z.minLength(1), z.maxLength(4096)) }),
    query: z.object({ ref: z.optional(z.string().check(z.maxLength(255))) }),
  },
  async ({ c, principal, params, query }) => {
    const project = await readableProject(principal, params.id);
    const content = await readRepository("project", project.id, project, (loc) =>
      readFile(loc.storage, loc.relativePath, { ref: query.ref ?? project.defaultBranch, filePath: params.file_path }),
    );
    if (!content) throw notFound("File");
    return rawText(c, content, params.file_path);
  },
);
export const handler = lambda(endpoint);
