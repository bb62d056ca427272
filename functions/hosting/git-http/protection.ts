/**
 * A push's protected branches and tags (`domain/protected-refs.ts`): the project's rules as the
 * push's write lease read its item (no read of their own), checked when git asks (its pre-receive
 * hook) against every ref update as GitLab's `BranchCheck` and `TagCheck` check a push (never "from
 * the web": a protected ref is deleted through the API, not by a push). The first refusal declines
 * the whole push, as on GitLab.
 */
import { listAllRefs } from "../domain/git/refs.js";
import { refRefusal, type ProtectedRule, type RefChange } from "../domain/protected-refs.js";
import type { PushProtection } from "./access.js";

export async function protectionRefusal(p: PushProtection, rules: ProtectedRule[], gitdir: string, changes: RefChange[]): Promise<string | undefined> {
  const empty = !(await listAllRefs(gitdir)).some((r) => r.name.startsWith("refs/heads/"));
  for (const change of changes) {
    const refusal = refRefusal(rules, change, { actor: p.actor, defaultBranch: p.defaultBranch, web: false, empty });
    if (refusal) return refusal;
  }
  return undefined;
}
