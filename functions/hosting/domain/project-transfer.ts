/**
 * Moving a project to another namespace (GitLab's `PUT /projects/:id/transfer`). Repositories are
 * named by the project's id (`hashedRelativePath`), so the repository stays where it is; what
 * changes is the project's namespace, its path claim and its list entries, in one transaction.
 * It runs under the repository's write lease like every write, so it is refused (409) while a
 * storage move holds the repository read-only.
 */
import { isConditionFailure, transact, type TransactItem } from "../../platform/db/table.js";
import { ApiError, notFound } from "../../platform/http/errors.js";
import { visibilityRank, type Visibility } from "./access.js";
import { containerKey, groupChildKey, pathClaimKey } from "./keys.js";
import type { Namespace } from "./namespaces.js";
import { listingAttributes, listingWrites } from "./project-listing.js";
import { findProject, fullPathOf, type Project } from "./projects.js";
import { withRepositoryWrite } from "./write-path.js";

/** GitLab's answer to a refused transfer: the project's errors, printed as Ruby prints a Hash. */
export const projectTransferError = (message: string) => new ApiError(400, { message: `Failed to transfer project {:new_namespace=>[${JSON.stringify(message)}]}` });

/**
 * `to` is the new namespace, `toVisibility` its group's visibility: a project more visible than its
 * new group is lowered to the group's (GitLab's transfer does the same).
 */
export async function transferProject(project: Project, to: Namespace, toVisibility?: Visibility): Promise<Project> {
  if (to.kind === project.namespace.kind && to.id === project.namespace.id) throw projectTransferError("Project is already in this namespace.");
  return withRepositoryWrite("project", project.id, async () => {
    // Read again under the lease: another transfer may have finished since the caller's read.
    const current = await findProject(project.id);
    if (!current) throw notFound("Project");
    const now = new Date().toISOString();
    const visibility = toVisibility && visibilityRank(toVisibility) < visibilityRank(current.visibility) ? toVisibility : current.visibility;
    const next: Project = { ...current, namespace: to, visibility, updatedAt: now, lastActivityAt: now };
    const items: TransactItem[] = [
      { Put: { Item: { ...pathClaimKey(fullPathOf(next)), kind: "project", ownerId: project.id }, ConditionExpression: "attribute_not_exists(pk)" } },
      { Delete: { Key: pathClaimKey(fullPathOf(current)) } },
      {
        Update: {
          Key: containerKey("project", project.id),
          UpdateExpression: "SET #ns = :ns, visibility = :v, updatedAt = :u, lastActivityAt = :u, archived = :a, searchText = :s, projectId = :id",
          ExpressionAttributeNames: { "#ns": "namespace" },
          ExpressionAttributeValues: { ":ns": to, ":v": visibility, ":u": now, ":a": listingAttributes(next).archived, ":s": listingAttributes(next).searchText, ":id": project.id },
          ConditionExpression: "attribute_exists(pk)",
        },
      },
      ...listingWrites(current, next),
      ...(current.namespace.kind === "group" ? [{ Delete: { Key: groupChildKey(current.namespace.id, "project", project.id) } }] : []),
      ...(to.kind === "group" ? [{ Put: { Item: { ...groupChildKey(to.id, "project", project.id) } } }] : []),
    ];
    try {
      await transact(items);
    } catch (err) {
      if (isConditionFailure(err)) throw projectTransferError("Project with same name or path in target namespace already exists");
      throw err;
    }
    return next;
  });
}
