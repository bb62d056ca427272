import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { forbidden, notFound } from "../../platform/http/errors.js";
import { deleteTag, findTag } from "../domain/git/index.js";
import { protectedRules, rulesFor } from "../domain/protected-refs.js";
import { readRepository } from "../domain/read-path.js";
import { withRepositoryWrite } from "../domain/write-path.js";
import { tagParams } from "./ref-views.js";
import { checkRefChange } from "./protected-writes.js";
import { projectWriter } from "./repository-access.js";
import { recordContribution } from "../domain/contributions.js";

/**
 * GitLab's "Delete a tag" (Developer+): `404 Tag Not Found` first; a protected tag only by a
 * Maintainer (GitLab's `delete_tag` policy: 403), and only when its rule lets them create it (400
 * with GitLab's sentence); then the one repository write path (409 read-only during a storage
 * move). 204 when done.
 */
export const endpoint = defineEndpoint({ summary: "Delete a repository tag", access: "write", params: tagParams }, async ({ c, principal, params }) => {
  const { project, level } = await projectWriter(principal, params.id);
  const found = await readRepository("project", project.id, project, (loc) => findTag(loc.storage, loc.relativePath, params.tag_name));
  if (!found) throw notFound("Tag");
  if (level < 40 && rulesFor(protectedRules(project), "tag", params.tag_name).length > 0) throw forbidden();
  const guard = () => checkRefChange(project, level, principal, { ref: `refs/tags/${params.tag_name}`, old: found.target });
  const deleted = await withRepositoryWrite("project", project.id, (location) => deleteTag(location!.storage, location!.relativePath, params.tag_name, guard));
  if (!deleted) throw notFound("Tag");
  await recordContribution(principal.user.id, project.id);
  return c.body(null, 204);
});
export const handler = lambda(endpoint);
