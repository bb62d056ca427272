/** Inspecting repositories on disk with the real git CLI. */
import { execFileSync } from "node:child_process";
import { hashedRelativePath, replicaPaths } from "../../functions/hosting/domain/git/index.js";

export function repoPaths(storage: string, kind: "project" | "snippet" | "group-wiki", id: number): string[] {
  return replicaPaths(storage, hashedRelativePath(kind, id));
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
