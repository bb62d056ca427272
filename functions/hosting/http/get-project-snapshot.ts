import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { notFound } from "../../platform/http/errors.js";
import { bool } from "../../platform/http/params.js";
import { repositorySnapshot } from "../domain/git/index.js";
import { readRepository } from "../domain/read-path.js";
import { visibleProject } from "../domain/projects.js";
import { projectWikiLocation } from "../domain/project-wiki.js";
import type { RepositoryLocation } from "../domain/write-path.js";
import { projectParams } from "./schemas.js";

/**
 * GitLab's "Download snapshot of a Git repository" (administrators): an uncompressed tar of the bare
 * repository, streamed, with the headers GitLab sends. `wiki=true` asks for the project wiki's
 * repository: `404 Repository Not Found` before its first page, as GitLab answers for a wiki without one.
 */
export const endpoint = defineEndpoint(
  { summary: "Snapshot of a project's Git repository (admin)", access: "read", admin: true, params: projectParams, query: z.object({ wiki: z.optional(bool()) }) },
  async ({ c, principal, params, query }) => {
    const { project } = await visibleProject(principal, params.id);
    const snapshot = (loc: RepositoryLocation) => repositorySnapshot(loc.storage, loc.relativePath);
    const wiki = projectWikiLocation(project);
    if (query.wiki && !wiki) throw notFound("Repository");
    const tar = query.wiki ? await readRepository("project", project.id, wiki!, snapshot, projectWikiLocation) : await readRepository("project", project.id, project, snapshot);
    c.header("Content-Type", "application/x-tar");
    c.header("Content-Disposition", 'attachment; filename="snapshot.tar"');
    c.header("Content-Transfer-Encoding", "binary");
    c.header("Cache-Control", "private");
    return c.body(tar, 200);
  },
);
export const handler = lambda(endpoint);
