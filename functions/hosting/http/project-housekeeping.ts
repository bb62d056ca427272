import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { forbidden } from "../../platform/http/errors.js";
import { AccessLevel } from "../domain/access.js";
import { visibleProject } from "../domain/projects.js";
import { housekeep } from "../domain/git/index.js";
import { withRepositoryWrite } from "../domain/write-path.js";
import { projectParams } from "./schemas.js";

/**
 * GitLab's "Start the housekeeping task for a project" (Maintainer+, `admin_project`): `task` is
 * `eager` (the default) or `prune`; 201 with an empty body. It packs the repository's loose refs
 * (`git/housekeeping.ts`) through the one repository write path, so it waits for a running write and
 * is refused (409, read-only) while the repository is being moved.
 */
export const endpoint = defineEndpoint(
  {
    summary: "Start the housekeeping task for a project",
    access: "write",
    status: 201,
    params: projectParams,
    body: z.object({ task: z.optional(z.enum(["eager", "prune"])) }),
  },
  async ({ c, principal, params }) => {
    const { project, level } = await visibleProject(principal, params.id);
    if (level < AccessLevel.maintainer) throw forbidden();
    await withRepositoryWrite("project", project.id, (location) => housekeep(location!.storage, location!.relativePath));
    return c.body(null, 201);
  },
);
export const handler = lambda(endpoint);
