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
import { pushAllowed, rulesFor, type Actor, type ProtectedRule } from "../domain/protected-refs.js";

/** `:branch` / `:tag_name` arrive URL-encoded (`feature%2Fx`); the router hands them over decoded. */
export const branchParams = z.object({ id: idOrPath(), branch: z.string().check(z.minLength(1), z.maxLength(1024)) });
export const tagParams = z.object({ id: idOrPath(), tag_name: z.string().check(z.minLength(1), z.maxLength(1024)) });

const projectUrl = (c: Context, project: Project) => `${baseUrl(c)}/${fullPathOf(project)}`;

export const commitView = (c: Context, project: Project, commit: CommitInfo) => ({ ...commit, web_url: `${projectUrl(c, project)}/-/commit/${commit.id}` });

/**
 * `Entities::Branch`: its protection as the project's rules say (`protected-refs.ts`):
 * `developers_can_push`/`_merge` when a matching rule grants that to Developers, and `can_push`
 * whether the caller may push to it (`UserAccess#can_push_to_branch?`).
 */
export function branchView(c: Context, project: Project, actor: Actor, branch: Branch, rules: ProtectedRule[]) {
  const matched = rulesFor(rules, "branch", branch.name);
  return {
    name: branch.name,
    commit: commitView(c, project, branch.commit),
    merged: branch.merged,
    protected: matched.length > 0,
    developers_can_push: matched.some((r) => r.push === AccessLevel.developer),
    developers_can_merge: matched.some((r) => r.merge === AccessLevel.developer),
    can_push: actor.level >= AccessLevel.developer && !project.archived && pushAllowed(matched, actor),
    default: branch.default,
    web_url: `${projectUrl(c, project)}/-/tree/${branch.name}`,
  };
}

/** `release` is null: releases are not part of this service. `protected` when a protected tag rule matches it. */
export function tagView(c: Context, project: Project, tag: Tag, rules: ProtectedRule[]) {
  return { name: tag.name, message: tag.message, target: tag.target, commit: commitView(c, project, tag.commit), release: null, protected: rulesFor(rules, "tag", tag.name).length > 0, created_at: tag.created_at };
}
