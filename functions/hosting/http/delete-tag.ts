import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { notFound } from "../../platform/http/errors.js";
import { deleteTag, findTag } from "../domain/git/index.js";
import { readRepository } from "../domain/read-path.js";
import { withRepositoryWrite } from "../domain/write-path.js";
import { tagParams } from "./ref-views.js";
import { writableProject } from "./repository-access.js";
import { recordContribution } from "../domain/contributions.js";

/**
 * GitLab's "Delete a tag" (Developer+): `404 Tag Not Found` first, then the one repository write path
 * (409 read-only during a storage move). 204 when done.
 */
export const endpoint = defineEndpoint({ summary: "Delete a repository tag", access: "write", params: tagParams }, async ({ c, principal, params }) => {
  const project = await writableProject(principal, params.id);
  const found = await readRepository("project", project.id, project, (loc) => findTag(loc.storage, loc.relativePath, params.tag_name));
  if (!found) throw notFound("Tag");
  const deleted = await withRepositoryWrite("project", project.id, (location) => deleteTag(location!.storage, location!.relativePath, params.tag_name));
  if (!deleted) throw notFound("Tag");
  await recordContribution(principal.user.id, project.id);
  return c.body(null, 204);
});
export const handler = lambda(endpoint);
