import { defineEndpoint } from "../../platform/http/endpoint.js";
import { lambda } from "../../platform/http/lambda.js";
import { notFound } from "../../platform/http/errors.js";
import { findTag } from "../domain/git/index.js";
import { readRepository } from "../domain/read-path.js";
import { protectedRules } from "../domain/protected-refs.js";
import { tagParams, tagView } from "./ref-views.js";
import { readableProject } from "./repository-access.js";

/** GitLab's "Get a single repository tag"; `404 Tag Not Found` otherwise. */
export const endpoint = defineEndpoint({ summary: "Get a repository tag", access: "public", params: tagParams }, async ({ c, principal, params }) => {
  const project = await readableProject(principal, params.id);
  const tag = await readRepository("project", project.id, project, (loc) => findTag(loc.storage, loc.relativePath, params.tag_name));
  if (!tag) throw notFound("Tag");
  return tagView(c, project, tag, protectedRules(project));
});
export const handler = lambda(endpoint);
