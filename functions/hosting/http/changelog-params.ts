/**
 * What the two changelog routes share (GitLab's `release_params`), and their errors: a
 * `ChangelogError` is GitLab's `422 Failed to generate the changelog: …`.
 */
import * as z from "zod/mini";
import { ApiError } from "../../platform/http/errors.js";
import { ChangelogError, isSemver, type ChangelogRequest } from "../domain/changelog/generate.js";
import type { Project } from "../domain/projects.js";
import { fullPathOf } from "../domain/projects.js";

const ref = () => z.string().check(z.minLength(1), z.maxLength(1024));

export const releaseParams = {
  version: z.string().check(z.minLength(1), z.maxLength(255), z.refine(isSemver, "is invalid")),
  from: z.optional(ref()),
  to: z.optional(ref()),
  /** Grape's `DateTime`: whatever a date parser reads (`2021-11-17`, `2021-11-17T10:00:00Z`, …). */
  date: z.optional(z.string().check(z.maxLength(64), z.refine((d) => !Number.isNaN(Date.parse(d)), "is invalid"))),
  trailer: z.optional(z.string().check(z.minLength(1), z.maxLength(255))),
  config_file: z.optional(z.string().check(z.minLength(1), z.maxLength(4096))),
  config_file_ref: z.optional(ref()),
};

export function changelogRequest(project: Project, params: { version: string; from?: string; to?: string; date?: string; trailer?: string; config_file?: string; config_file_ref?: string }, branch: string): ChangelogRequest {
  return {
    version: params.version,
    from: params.from,
    to: params.to,
    date: params.date ? new Date(params.date) : undefined,
    trailer: params.trailer ?? "Changelog",
    configFile: params.config_file ?? ".gitlab/changelog_config.yml",
    configRef: params.config_file_ref ?? project.defaultBranch,
    branch,
    projectPath: fullPathOf(project),
  };
}

export function changelogFailure(err: unknown): never {
  if (err instanceof ChangelogError) throw new ApiError(422, { message: `Failed to generate the changelog: ${err.message}` });
  throw err;
}
