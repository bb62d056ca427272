/**
 * Protected branches and tags, as every path that moves a ref checks them: a push over HTTP (the
 * pre-receive hook, `git-http/fence-hook.ts`), API commits and file edits, branch and tag creation
 * and deletion, merged-branch cleanup. GitLab's rules (`Gitlab::Checks::BranchCheck`, `TagCheck`,
 * `Gitlab::UserAccess`, `ProtectedRefAccess`) and its sentences.
 *
 * A project's rules, branches and tags, are a map on its item (`protectedRefs`, by `<kind>:<name>`):
 * every path that moves a ref has read that item already (the caller's access, the push's write
 * lease), so checking them costs no read at all. A name matching several rules gets the most
 * permissive of them, force push included (GitLab's docs: "the most permissive rule applies").
 * Small on purpose: the Git function and every API write imports it; the rules' administration is
 * `protected-ref-admin.ts`.
 */
import { nextId } from "../../platform/db/table.js";
import type { BranchProtection } from "../../identity/domain/branch-protection.js";

export interface ProtectedRule {
  kind: "branch" | "tag";
  /** GitLab's id of the rule; each of its access levels has the same id (CE creates them with it). */
  id: number;
  /** A ref name, or a wildcard (`release/*`, `*-stable`). */
  name: string;
  /** Branches: who may push, merge and unprotect (30, 40, 60, or 0 for no one); force pushes. */
  push?: number;
  merge?: number;
  unprotect?: number;
  force?: boolean;
  /** A default branch rule made under "fully protected after initial push": a Developer may push the first commit. */
  initialPush?: boolean;
  /** Tags: who may create a matching tag. */
  create?: number;
}

/** Who moves the ref: the caller's level on the project (administrators count as Owners) and whether they administer the instance. */
export interface Actor {
  level: number;
  admin: boolean;
}

/** The rules on a project item, by `ruleKey`; absent on a project that never had one. */
export type ProtectedRefs = Record<string, ProtectedRule>;

export const ruleKey = (kind: ProtectedRule["kind"], name: string) => `${kind}:${name}`;

/** A project's rules, as its item holds them. */
export const protectedRules = (project: { protectedRefs?: ProtectedRefs }): ProtectedRule[] => Object.values(project.protectedRefs ?? {});

/**
 * GitLab's `RefMatcher`: the exact name, or `*` standing for any run of characters (slashes too).
 * Matched by two pointers that back up only to the last `*` seen, never by a backtracking regex:
 * a pattern such as `*a*a*a*a` against a long near-miss name costs time exponential in its stars
 * there, and these patterns meet names on public reads and on every push.
 */
export function matchesRef(pattern: string, name: string): boolean {
  let p = 0;
  let n = 0;
  let star = -1;
  let resume = 0;
  while (n < name.length) {
    if (pattern[p] === "*") {
      star = p++;
      resume = n;
    } else if (p < pattern.length && pattern[p] === name[n]) {
      p++;
      n++;
    } else if (star >= 0) {
      p = star + 1;
      n = ++resume;
    } else return false;
  }
  while (pattern[p] === "*") p++;
  return p === pattern.length;
}

export const rulesFor = (rules: ProtectedRule[], kind: ProtectedRule["kind"], name: string) => rules.filter((r) => r.kind === kind && matchesRef(r.name, name));

/** `ProtectedRefAccess#check_access` of a role: 0 no one, 60 administrators only, else that role and above. */
export const grants = (access: number | undefined, actor: Actor) => (access === 60 ? actor.admin : !!access && actor.level >= access);

/**
 * The one "may push to this branch" rule, `UserAccess#can_push_to_branch?` for a caller who may push
 * to the project, given the branch rules matching the branch (`rulesFor`): none, or one that lets
 * the caller push. In an empty repository (`empty`) Maintainers create the first branch whatever
 * the rule says, and Developers do when the default branch's rule allows the initial push.
 */
export const pushAllowed = (matched: ProtectedRule[], actor: Actor, empty = false): boolean =>
  matched.length === 0 || matched.some((r) => grants(r.push, actor)) || (empty && (actor.level >= 40 || matched.some((r) => r.initialPush)));

/** `pushAllowed` for a branch of the project; `isEmpty` is asked only when the repository's emptiness decides. */
export async function mayPushTo(rules: ProtectedRule[], branch: string, actor: Actor, isEmpty?: () => Promise<boolean>): Promise<boolean> {
  const matched = rulesFor(rules, "branch", branch);
  if (pushAllowed(matched, actor)) return true;
  return !!isEmpty && pushAllowed(matched, actor, true) && (await isEmpty());
}

/** One ref update as git reports it: a missing side is a creation or a deletion. */
export interface RefChange {
  ref: string;
  old?: string;
  new?: string;
  /** The new commit does not descend from the old one (a force push). */
  forced?: boolean;
}

/**
 * Why GitLab refuses this ref update, or undefined: `BranchCheck` and `TagCheck`. `web` is GitLab's
 * "updated from the web" (the API), where Maintainers may delete protected refs; a push may not.
 * `empty`: the repository has no branch yet.
 */
export function refRefusal(rules: ProtectedRule[], change: RefChange, ctx: { actor: Actor; defaultBranch: string; web: boolean; empty: boolean }): string | undefined {
  const { actor, web } = ctx;
  const creation = !change.old;
  const deletion = !change.new;
  if (change.ref.startsWith("refs/heads/")) {
    const name = change.ref.slice(11);
    if (deletion && name === ctx.defaultBranch) return "The default branch of a project cannot be deleted.";
    if (!deletion && /^[0-9a-f]{40}(-\/|\/|$)/i.test(name)) return "You cannot create a branch with a 40-character hexadecimal branch name.";
    const matched = rulesFor(rules, "branch", name);
    if (matched.length === 0) return undefined;
    if (change.forced && !matched.some((r) => r.force)) return "You are not allowed to force push code to a protected branch on this project.";
    const push = pushAllowed(matched, actor);
    if (ctx.empty) return pushAllowed(matched, actor, true) ? undefined : PUSH_PROTECTED;
    if (deletion) {
      if (actor.level < 40) return "You are not allowed to delete protected branches from this project. Only a project maintainer or owner can delete a protected branch.";
      return web ? undefined : "You can only delete protected branches using the web interface.";
    }
    if (push) return undefined;
    if (!creation) return PUSH_PROTECTED;
    if (!matched.some((r) => grants(r.merge, actor))) return "You are not allowed to create protected branches on this project.";
    return web ? undefined : "You can only create protected branches using the web interface and API.";
  }
  if (change.ref.startsWith("refs/tags/")) {
    const name = change.ref.slice(10);
    if (creation && name === ctx.defaultBranch) return "You cannot use default branch name to create a tag";
    if (!deletion && name.startsWith("refs/tags/")) return "You cannot create a tag with a prohibited pattern.";
    if (!deletion && /^[0-9a-f]{40}/.test(name)) return "You cannot create a tag with a SHA-1 or SHA-256 tag name.";
    const matched = rulesFor(rules, "tag", name);
    if (matched.length === 0) return undefined;
    if (!creation && !deletion) return "Protected tags cannot be updated.";
    if (deletion && actor.level < 40) return "You are not allowed to delete protected tags from this project. Only a project maintainer or owner can delete a protected tag.";
    if (deletion && !web) return "You can only delete protected tags using the web interface.";
    return matched.some((r) => grants(r.create, actor)) ? undefined : "You are not allowed to create this tag as it is protected.";
  }
  return undefined;
}

const PUSH_PROTECTED = "You are not allowed to push code to protected branches on this project.";

/**
 * A new project's rules: the one GitLab's `ProtectDefaultBranchService` gives its default branch
 * under the instance's or its group's default branch protection; none when that protection is "not
 * protected" (Developers push and merge, force pushes allowed).
 */
export async function newProjectRules(branch: string, p: BranchProtection): Promise<ProtectedRefs> {
  if (p.push === 30 && p.merge === 30 && p.force) return {};
  const rule: ProtectedRule = { kind: "branch", id: await nextId("protected_branches"), name: branch, push: p.push, merge: p.merge, unprotect: 40, force: p.force };
  if (p.initialPush) rule.initialPush = true;
  return { [ruleKey("branch", branch)]: rule };
}
