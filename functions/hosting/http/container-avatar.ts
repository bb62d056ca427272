/**
 * GitLab's `GET /projects/:id/avatar` and `GET /groups/:id/avatar`: the container's avatar file, for
 * whoever may see the container. Projects and groups here take no avatar (`avatar_url` is null), so
 * the answer is GitLab's for one without: `404 Avatar Not Found`, after the container's own 404.
 */
import { defineEndpoint, type Endpoint } from "../../platform/http/endpoint.js";
import { notFound } from "../../platform/http/errors.js";
import { visibleGroup } from "../domain/groups.js";
import { visibleProject } from "../domain/projects.js";
import { groupParams, projectParams } from "./schemas.js";

export const projectAvatar = (): Endpoint =>
  defineEndpoint({ summary: "Download a project avatar", access: "public", params: projectParams }, async ({ principal, params }) => {
    await visibleProject(principal, params.id);
    throw notFound("Avatar");
  });

export const groupAvatar = (): Endpoint =>
  defineEndpoint({ summary: "Download a group avatar", access: "public", params: groupParams }, async ({ principal, params }) => {
    await visibleGroup(principal, params.id);
    throw notFound("Avatar");
  });
