/**
 * The protected branches and tags APIs' side of the rules (`protected-refs.ts` checks them): list,
 * find by exact name (a wildcard is found by its own name, not by what it matches), protect, change
 * and unprotect, and GitLab's entities (`ProtectedBranch`, `ProtectedTag`, `ProtectedRefAccess`).
 * Each change is one conditional update of the rule's entry in the project item's `protectedRefs`,
 * so "already protected" and "not protected" are conditions, never a read then a write.
 */
import { isConditionFailure, nextId, updateItem } from "../../platform/db/table.js";
import { ApiError, conflict, notFound } from "../../platform/http/errors.js";
import { containerKey } from "./keys.js";
import type { Project } from "./projects.js";
import { protectedRules, ruleKey, type ProtectedRule } from "./protected-refs.js";

type Kind = ProtectedRule["kind"];

/**
 * At most this many rules a project (branches and tags together): they live on the project item,
 * which every read of the project carries. GitLab sets no number; a project needs a handful.
 */
export const MAX_PROTECTED_REFS = 500;

/** A project's rules of one kind, oldest first (GitLab lists them by id); `search`, part of the name. */
export function listRules(project: Project, kind: Kind, search?: string): ProtectedRule[] {
  const needle = search?.toLowerCase();
  return protectedRules(project)
    .filter((r) => r.kind === kind && (!needle || r.name.toLowerCase().includes(needle)))
    .sort((a, b) => a.id - b.id);
}

export const findRule = (project: Project, kind: Kind, name: string): ProtectedRule | undefined => project.protectedRefs?.[ruleKey(kind, name)];

/** The update of one rule's entry, `#r` naming it (any name, dots and all, is one map key). */
const entry = (project: Project, kind: Kind, name: string) => ({ ...containerKey("project", project.id), names: { "#refs": "protectedRefs", "#r": ruleKey(kind, name) } });

/**
 * Protects a name: 409 `Protected branch '<name>' already exists` for a branch (GitLab's API checks
 * first), 422 `Name has already been taken` for a tag (its model validation).
 */
export async function protect(project: Project, rule: Omit<ProtectedRule, "id">): Promise<ProtectedRule> {
  const created = { ...rule, id: await nextId(rule.kind === "branch" ? "protected_branches" : "protected_tags") } as ProtectedRule;
  const key = entry(project, rule.kind, rule.name);
  // A project made before protected refs existed has no map yet: the entry's update needs one.
  if (!project.protectedRefs) await updateItem({ ...key, names: { "#refs": "protectedRefs" }, update: "SET #refs = if_not_exists(#refs, :none)", condition: "attribute_exists(pk)", values: { ":none": {} } });
  try {
    await updateItem({ ...key, update: "SET #refs.#r = :rule", condition: "attribute_not_exists(#refs.#r) AND size(#refs) < :max", values: { ":rule": created, ":max": MAX_PROTECTED_REFS } });
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    if (protectedRules(project).length >= MAX_PROTECTED_REFS) throw new ApiError(422, { message: [`Project has too many protected branches and tags (${MAX_PROTECTED_REFS} at most)`] });
    if (rule.kind === "branch") throw conflict(`Protected branch '${rule.name}' already exists`);
    throw new ApiError(422, { message: ["Name has already been taken"] });
  }
  return created;
}

/** Changes a branch rule's force push setting; `404 Not found` when it is not protected. */
export async function setForcePush(project: Project, name: string, force: boolean): Promise<ProtectedRule> {
  const key = entry(project, "branch", name);
  try {
    const item = await updateItem({ ...key, names: { ...key.names, "#f": "force" }, update: "SET #refs.#r.#f = :f", condition: "attribute_exists(#refs.#r)", values: { ":f": force } });
    return (item as { protectedRefs: Record<string, ProtectedRule> }).protectedRefs[ruleKey("branch", name)]!;
  } catch (err) {
    if (isConditionFailure(err)) throw notFound();
    throw err;
  }
}

/** Unprotects a name; `404 Not found` when it is not protected. */
export async function unprotect(project: Project, kind: Kind, name: string): Promise<void> {
  try {
    await updateItem({ ...entry(project, kind, name), update: "REMOVE #refs.#r", condition: "attribute_exists(#refs.#r)" });
  } catch (err) {
    if (isConditionFailure(err)) throw notFound();
    throw err;
  }
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
