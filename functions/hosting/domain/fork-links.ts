/**
 * GitLab's fork relation between existing projects (`POST`/`DELETE /projects/:id/fork…`): only the
 * link, as a fork made here carries it: the fork's `forkedFromId`, its entry in the source's fork
 * list and the source's `forksCount`, in one transaction. No repository changes (forks share no
 * objects here), so a storage move does not hold it.
 */
import { isConditionFailure, transact, type TransactItem } from "../../platform/db/table.js";
import { badRequest, conflict } from "../../platform/http/errors.js";
import { containerKey, forkLinkKey } from "./keys.js";
import { findProject, type Project } from "./projects.js";

const countOnSource = (sourceId: number, delta: 1 | -1): TransactItem => ({
  Update: { Key: containerKey("project", sourceId), UpdateExpression: "ADD forksCount :d", ExpressionAttributeValues: { ":d": delta }, ConditionExpression: "attribute_exists(pk)" },
});

/**
 * Links `fork` to `source`: GitLab's 409 `Project already forked` when it is a fork already; a 400
 * when the source is the project itself or descends from it (a cycle GitLab's fork networks refuse).
 */
export async function linkFork(fork: Project, source: Project): Promise<Project> {
  for (let p: Project | undefined = source, hops = 0; p && hops < 100; p = p.forkedFromId ? await findProject(p.forkedFromId) : undefined, hops++) {
    if (p.id === fork.id) throw badRequest("Project cannot be a fork of itself or of its own forks");
  }
  try {
    await transact([
      {
        Update: {
          Key: containerKey("project", fork.id),
          UpdateExpression: "SET forkedFromId = :s",
          ConditionExpression: "attribute_exists(pk) AND attribute_not_exists(forkedFromId)",
          ExpressionAttributeValues: { ":s": source.id },
        },
      },
      { Put: { Item: { ...forkLinkKey(source.id, fork.id), projectId: fork.id } } },
      countOnSource(source.id, 1),
    ]);
  } catch (err) {
    if (isConditionFailure(err)) throw conflict("Project already forked");
    throw err;
  }
  return { ...fork, forkedFromId: source.id };
}

/** Unlinks a fork from its source; false when it is not a fork (GitLab's 304). */
export async function unlinkFork(fork: Project): Promise<boolean> {
  const sourceId = fork.forkedFromId;
  if (!sourceId) return false;
  const sourceExists = !!(await findProject(sourceId));
  try {
    await transact([
      {
        Update: {
          Key: containerKey("project", fork.id),
          UpdateExpression: "REMOVE forkedFromId",
          ConditionExpression: "forkedFromId = :s",
          ExpressionAttributeValues: { ":s": sourceId },
        },
      },
      { Delete: { Key: forkLinkKey(sourceId, fork.id) } },
      ...(sourceExists ? [countOnSource(sourceId, -1)] : []),
    ]);
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
  return true;
}
