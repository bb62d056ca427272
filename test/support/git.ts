/** Inspecting repositories on disk with the real git CLI. */
import { execFileSync } from "node:child_process";
import { hashedRelativePath, replicaPaths } from "../../functions/hosting/domain/git/index.js";
import { projectWikiPath } from "../../functions/hosting/domain/project-wiki.js";

/** `project-wiki`: the wiki repository beside a project's own (`<project repository>.wiki.git`). */
export function repoPaths(storage: string, kind: "project" | "snippet" | "group-wiki" | "project-wiki", id: number): string[] {
  return replicaPaths(storage, kind === "project-wiki" ? projectWikiPath(hashedRelativePath("project", id)) : hashedRelativePath(kind, id));
}

export function git(dir: string, ...args: string[]): string {
  return execFileSync("git", ["--git-dir", dir, ...args], { encoding: "utf8" });
}

export function fsck(dir: string): void {
  execFileSync("git", ["--git-dir", dir, "fsck", "--strict", "--no-progress"], { stdio: "pipe" });
}

export function commitSubjects(dir: string, ref = "main"): string[] {
  return git(dir, "log", "--format=%s", ref).trim().split("\n").filter(Boolean);
}
