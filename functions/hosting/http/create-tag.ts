import * as z from "zod/mini";
import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { createTag } from "../domain/git/index.js";
import { protectedRules } from "../domain/protected-refs.js";
import { withRepositoryWrite } from "../domain/write-path.js";
import { tagView } from "./ref-views.js";
import { checkRefChange } from "./protected-writes.js";
import { projectWriter } from "./repository-access.js";
import { projectParams } from "./schemas.js";
import { recordContribution } from "../domain/contributions.js";

/**
 * GitLab's "Create a new tag" (Developer+): lightweight, or annotated with `message` (the caller is
 * the tagger), through the one repository write path (409 read-only during a storage move). GitLab
 * answers every refusal of its tag service with 400 and the service's sentence, a protected tag the
 * caller may not create (`create_access_level`) and a tag named as the default branch among them.
 */
export const endpoint = defineEndpoint(
  {
    summary: "Create a repository tag",
    access: "write",
    status: 201,
    params: projectParams,
    body: z.object({
      tag_name: z.string().check(z.maxLength(1024)),
      ref: z.string().check(z.maxLength(1024)),
      message: z.optional(z.string().check(z.maxLength(100_000))),
    }),
  },
  async ({ c, principal, params, body }) => {
    const { project, level } = await projectWriter(principal, params.id);
    const guard = () => checkRefChange(project, level, principal, { ref: `refs/tags/${body.tag_name}`, new: body.ref });
    const tag = await withRepositoryWrite("project", project.id, (location) =>
      createTag(location!.storage, location!.relativePath, {
        name: body.tag_name,
        ref: body.ref,
        message: body.message,
        tagger: { name: principal.user.name, email: principal.user.email },
        guard,
      }),
    );
    await recordContribution(principal.user.id, project.id);
    return tagView(c, project, tag, protectedRules(project));
  },
);
export const handler = lambda(endpoint);
