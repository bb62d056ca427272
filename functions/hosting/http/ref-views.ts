/**
 * GitLab's branch and tag entities (`Entities::Branch`, `Entities::Tag`) and the path parameters of
 * their routes. Branches and tags carry GitLab's `Entities::Commit` with its `web_url`.
 */
import type { Context } from "hono";
import * as z from "zod/mini";
import { idOrPath } from "../../platform/http/params.js";
import { baseUrl } from "../../platform/http/urls.js";
import { AccessLevel } from "../domain/access.js";
import type { Branch, CommitInfo, Tag } from "../domain/git/index.js";
import { fullPathOf, type Project } from "../domain/projects.js";

/** `:branch` / `:tag_name` arrive URL-encoded (`feature%2Fx`); the router hands them over decoded. */
export const branchParams = z.object({ id: idOrPath(), branch: z.string().check(z.minLength(1), z.maxLength(1024)) });
export const tagParams = z.object({ id: idOrPath(), tag_name: z.string().check(z.minLength(1), z.maxLength(1024)) });

const projectUrl = (c: Context, project: Project) => `${baseUrl(c)}/${fullPathOf(project)}`;

export const commitView = (c: Context, project: Project, commit: CommitInfo) => ({ ...commit, web_url: `${projectUrl(c, project)}/-/commit/${commit.id}` });

/**
 * No branch is protected here (protected branches are not part of this service), so GitLab's
 * protection fields read as for an unprotected branch and `can_push` is the caller's push right.
 */
export function branchView(c: Context, project: Project, level: number, branch: Branch) {
  return {
    name: branch.name,
    commit: commitView(c, project, branch.commit),
    merged: branch.merged,
    protected: false,
    developers_can_push: false,
    developers_can_merge: false,
    can_push: level >= AccessLevel.developer && !project.archived,
    default: branch.default,
    web_url: `${projectUrl(c, project)}/-/tree/${branch.name}`,
  };
}

/** `release` is null: releases are not part of this service; no tag is protected either. */
export function tagView(c: Context, project: Project, tag: Tag) {
  return { name: tag.name, message: tag.message, target: tag.target, commit: commitView(c, project, tag.commit), release: null, protected: false, created_at: tag.created_at };
}
