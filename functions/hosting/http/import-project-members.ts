import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { idOrPath } from "../../platform/http/params.js";
import { forbidden } from "../../platform/http/errors.js";
import { AccessLevel } from "../domain/access.js";
import { visibleProject } from "../domain/projects.js";
import { importMembers } from "../domain/members.js";

/**
 * GitLab's `POST /projects/:id/import_project_members/:project_id`: a Maintainer+ of the target (403)
 * copies the direct members of a source it can read (else `404 Project Not Found`, as for the target).
 * Every member it copies is valid here, so the answer is GitLab's `{"status":"success"}`.
 */
export const endpoint = defineEndpoint(
  { summary: "Import the members of another project", access: "write", params: z.object({ id: idOrPath(), project_id: idOrPath() }) },
  async ({ principal, params }) => {
    const target = await visibleProject(principal, params.id);
    if (target.level < AccessLevel.maintainer) throw forbidden();
    const source = await visibleProject(principal, params.project_id);
    await importMembers(source.project.id, target.project.id, target.level, principal.user.id);
    return { status: "success" };
  },
);
export const handler = lambda(endpoint);
