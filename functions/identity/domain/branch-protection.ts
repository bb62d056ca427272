/**
 * GitLab's default branch protection: what a new project's default branch gets, set for the
 * instance (application settings) and per group (`default_branch_protection`, the levels 0–4, and
 * since GitLab 17.0 its hash form `default_branch_protection_defaults`). Stored as the hash's four
 * facts; each form is read from and shown as the other, as `Gitlab::Access::BranchProtection` maps them.
 * Nothing stored: GitLab's default, "fully protected" (2).
 */
export interface BranchProtection {
  /** Who may push (`allowed_to_push`): 30 Developers + Maintainers, 40 Maintainers, 60 admins, 0 no one. */
  push: number;
  /** Who may merge (`allowed_to_merge`). */
  merge: number;
  force: boolean;
  /** A Developer may push the first commit of an empty repository (level 4). */
  initialPush: boolean;
}

/** `BranchProtection#to_hash`: 0 none, 1 partial, 2 full, 3 against developer pushes, 4 full after the initial push. */
export const protectionOfLevel = (level: number): BranchProtection => ({
  push: level < 2 ? 30 : 40,
  merge: level === 0 || level === 3 ? 30 : 40,
  force: level === 0,
  initialPush: level === 4,
});

/** Level 2, spelt out (a literal, so that a bundle that does not use it leaves it out). */
export const FULL_PROTECTION: BranchProtection = { push: 40, merge: 40, force: false, initialPush: false };

/** The level a protection reads as (a hash that no level gives reads as the nearest: by who pushes). */
export function levelOfProtection(p: BranchProtection): number {
  if (p.push === 30) return p.force && p.merge === 30 ? 0 : 1;
  if (p.initialPush) return 4;
  return p.merge === 30 ? 3 : 2;
}

/** The hash form GitLab's API shows (`default_branch_protection_defaults`). */
export const protectionDefaults = (p: BranchProtection) => ({
  allowed_to_push: [{ access_level: p.push }],
  allow_force_push: p.force,
  allowed_to_merge: [{ access_level: p.merge }],
  developer_can_initial_push: p.initialPush,
});

/** The hash as a request gives it (every key optional), over the protection it changes. */
export interface ProtectionDefaultsInput {
  allowed_to_push?: Array<{ access_level: number }>;
  allow_force_push?: boolean;
  allowed_to_merge?: Array<{ access_level: number }>;
  developer_can_initial_push?: boolean;
}

/** Several access levels in a list: the most permissive stands (GitLab allows whoever any of them allows); none, no one. */
function mostPermissive(levels: Array<{ access_level: number }> | undefined, current: number): number {
  if (levels === undefined) return current;
  const granting = levels.map((l) => l.access_level).filter((l) => l > 0);
  return granting.length ? Math.min(...granting) : 0;
}

/** A request's settings over the current ones: the integer level, then the hash (GitLab 17's form wins). */
export function chosenProtection(current: BranchProtection, level: number | undefined, hash: ProtectionDefaultsInput | undefined): BranchProtection {
  const base = level === undefined ? current : protectionOfLevel(level);
  if (!hash) return base;
  return {
    push: mostPermissive(hash.allowed_to_push, base.push),
    merge: mostPermissive(hash.allowed_to_merge, base.merge),
    force: hash.allow_force_push ?? base.force,
    initialPush: hash.developer_can_initial_push ?? base.initialPush,
  };
}
