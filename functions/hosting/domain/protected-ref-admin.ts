/**
 * The protected branches and tags APIs' side of the rules (`protected-refs.ts` checks them): list,
 * find by exact name (a wildcard is found by its own name, not by what it matches), protect, change
 * and unprotect, and GitLab's entities (`ProtectedBranch`, `ProtectedTag`, `ProtectedRefAccess`).
 * A name is one item per project and kind, so "already protected" is a conditional put.
 */
import { deleteItem, getItem, isConditionFailure, nextId, putItem, updateItem } from "../../platform/db/table.js";
import { ApiError, conflict } from "../../platform/http/errors.js";
import { protectedRefKey } from "./keys.js";
import { protectedRules, type ProtectedRule } from "./protected-refs.js";

type Kind = ProtectedRule["kind"];

/** A project's rules of one kind, oldest first (GitLab lists them by id). */
export async function listRules(projectId: number, kind: Kind, search?: string): Promise<ProtectedRule[]> {
  const needle = search?.toLowerCase();
  return (await protectedRules(projectId)).filter((r) => r.kind === kind && (!needle || r.name.toLowerCase().includes(needle))).sort((a, b) => a.id - b.id);
}

export async function findRule(projectId: number, kind: Kind, name: string): Promise<ProtectedRule | undefined> {
  const key = protectedRefKey(projectId, kind, name);
  return getItem<ProtectedRule>(key.pk, key.sk);
}

/**
 * Protects a name: 409 `Protected branch '<name>' already exists` for a branch (GitLab's API checks
 * first), 422 `Name has already been taken` for a tag (its model validation).
 */
export async function protect(projectId: number, rule: Omit<ProtectedRule, "id">): Promise<ProtectedRule> {
  const created = { ...rule, id: await nextId(rule.kind === "branch" ? "protected_branches" : "protected_tags") } as ProtectedRule;
  try {
    await putItem({ ...protectedRefKey(projectId, rule.kind, rule.name), ...created }, { expression: "attribute_not_exists(pk)" });
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    if (rule.kind === "branch") throw conflict(`Protected branch '${rule.name}' already exists`);
    throw new ApiError(422, { message: ["Name has already been taken"] });
  }
  return created;
}

/** Changes a branch rule's force push setting; undefined when the rule is gone. */
export async function setForcePush(projectId: number, name: string, force: boolean): Promise<ProtectedRule | undefined> {
  try {
    return (await updateItem({ ...protectedRefKey(projectId, "branch", name), update: "SET #f = :f", condition: "attribute_exists(pk)", names: { "#f": "force" }, values: { ":f": force } })) as unknown as ProtectedRule;
  } catch (err) {
    if (isConditionFailure(err)) return undefined;
    throw err;
  }
}

export async function unprotect(projectId: number, kind: Kind, name: string): Promise<void> {
  const key = protectedRefKey(projectId, kind, name);
  await deleteItem(key.pk, key.sk);
}

const DESCRIPTIONS: Record<number, string> = { 0: "No one", 30: "Developers + Maintainers", 40: "Maintainers", 60: "Instance admins" };

/** `Entities::ProtectedRefAccess`: CE has one role level per kind of access, made with the rule (hence its id). */
const accessLevels = (rule: ProtectedRule, level: number | undefined) => [{ id: rule.id, access_level: level ?? 40, access_level_description: DESCRIPTIONS[level ?? 40] }];

/**
 * `Entities::ProtectedBranch`. `code_owner_approval_required` is a Premium setting, always false
 * here; `unprotect_access_levels` (Premium's entity) says who may unprotect it.
 */
export const protectedBranchView = (rule: ProtectedRule) => ({
  id: rule.id,
  name: rule.name,
  push_access_levels: accessLevels(rule, rule.push),
  merge_access_levels: accessLevels(rule, rule.merge),
  unprotect_access_levels: accessLevels(rule, rule.unprotect),
  allow_force_push: rule.force ?? false,
  code_owner_approval_required: false,
});

/** `Entities::ProtectedTag`: no id of its own, as GitLab's. */
export const protectedTagView = (rule: ProtectedRule) => ({ name: rule.name, create_access_levels: accessLevels(rule, rule.create) });
