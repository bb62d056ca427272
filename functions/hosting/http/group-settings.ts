/**
 * The group settings GitLab's group create and update take that this service keeps (`GroupSettings`);
 * a module of their own, so that the other routes' bundles do not build their schemas.
 */
import * as z from "zod/mini";
import { bool } from "../../platform/http/params.js";
import { branchProtectionFields } from "../../identity/http/branch-protection-params.js";
import { chosenProtection, FULL_PROTECTION, levelOfProtection, protectionDefaults } from "../../identity/domain/branch-protection.js";
import { branchProtectionSetting } from "../../identity/domain/settings.js";
import type { Group, GroupSettings } from "../domain/groups.js";

export const groupSettingFields = { request_access_enabled: z.optional(bool()), share_with_group_lock: z.optional(bool()), ...branchProtectionFields };

type SettingsBody = { request_access_enabled?: boolean; share_with_group_lock?: boolean } & Partial<z.output<z.ZodMiniObject<typeof branchProtectionFields>>>;

/**
 * The settings a request gives. A default branch protection (`default_branch_protection` or its
 * hash) becomes the group's own, over what it had (GitLab's default, fully protected, if nothing).
 */
export const chosenGroupSettings = (body: SettingsBody, current?: Group): GroupSettings => ({
  requestAccessEnabled: body.request_access_enabled,
  shareWithGroupLock: body.share_with_group_lock,
  branchProtection:
    body.default_branch_protection !== undefined || body.default_branch_protection_defaults
      ? chosenProtection(current?.branchProtection ?? FULL_PROTECTION, body.default_branch_protection, body.default_branch_protection_defaults)
      : undefined,
});

/**
 * A single group's answer with GitLab's `default_branch_protection` and `…_defaults`: the group's
 * own, else the instance's (`Namespace#default_branch_protection`). Lists leave them out rather
 * than read the instance's settings for every page.
 */
export async function withBranchProtection<T extends object>(view: T, group: Group) {
  const p = group.branchProtection ?? (await branchProtectionSetting());
  return { ...view, default_branch_protection: levelOfProtection(p), default_branch_protection_defaults: protectionDefaults(p) };
}
