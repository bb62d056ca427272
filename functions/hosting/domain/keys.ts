/**
 * DynamoDB keys of the hosting context, named by the access pattern that reads them.
 *
 * | item                      | pk                      | sk              | gsi1pk / gsi1sk                   | gsi2pk / gsi2sk                        |
 * |---------------------------|-------------------------|-----------------|-----------------------------------|----------------------------------------|
 * | project (+ its repo)      | PROJECT#<id>            | PROJECT         | PROJECTS / <id>                   | STORAGE#<storage>#project / <id>       |
 * | snippet (+ its repo)      | SNIPPET#<id>            | SNIPPET         | USER#<author>#SNIPPETS / <id>     | STORAGE#<storage>#snippet / <id>       |
 * | group (+ its wiki repo)   | GROUP#<id>              | GROUP           | GROUPS / <id>                     | STORAGE#<storage>#group / <id> (wiki)  |
 * | project member            | PROJECT#<id>            | MEMBER#<uid>    | USER#<uid>#PROJECTS / <project>   |                                        |
 * | group member              | GROUP#<id>              | MEMBER#<uid>    | USER#<uid>#GROUPS / <group>       |                                        |
 * | child of a group         | GROUP#<id>              | CHILD#<kind>#<id> |                                 |                                        |
 * | personal project entry    | USER#<uid>              | PROJECT#<id>    |                                   |                                        |
 * | group share (link)        | GROUP#<shared id>       | SHARE#<with id> | SHARED#WITH#<with id> / <shared>  |                                        |
 * | project share (link)      | PROJECT#<id>            | SHARE#<with id> | PROJECTS#SHARED#WITH#<with id> / <id> |                                    |
 * | access request            | PROJECT#<id> / GROUP#<id> | REQUEST#<uid> |                                   |                                        |
 * | fork of a project         | PROJECT#<source id>     | FORK#<fork id>  |                                   |                                        |
 * | a day's fetch count       | PROJECT#<id>            | FETCHES#<date>  |                                   |                                        |
 * | comment on a commit       | PROJECT#<id>            | COMMIT_NOTE#<sha>#<note id> |                       |                                        |
 * | path claim                | NAMESPACE#<full path>   | NAMESPACE       |                                   |                                        |
 * | visible-to-all marker     | VISIBLE#<kind>          | <id>            |                                   |                                        |
 *   (for snippets: public and internal ones, personal and project, with `createdAt` and `projectId`)
 * | project order entry       | PROJECTS#BY#<order>#<audience> | <sort value>#<id> |                           |                                        |
 * | contribution (a year)     | USER#<uid>              | CONTRIBUTED#<project id> |                            |                                        |
 *
 * A container item carries its repository's state (`storage`, `relativePath`, `readOnly`,
 * `writeLease`), so switching storage and the read-only flag are single-item conditional writes.
 * A project item also says whether its wiki repository exists (`wikiRepository`); the wiki lives
 * beside the project's repository and shares its storage, lease and read-only flag. It holds its
 * protected branches and tags too (`protectedRefs`, `protected-refs.ts`): every ref move reads the
 * item anyway, so checking them costs no read.
 * Project lists ordered by name, path or a timestamp read the order entries (`audience` is `all`
 * for administrators, `visible` for public and internal projects); each entry, like the container
 * item and the visible marker, carries `archived`, `visibility` and `searchText`, the attributes list
 * filters test inside the Query; so does a personal project entry.
 * A group item also carries `shares` (invited group id → level and expiry), written in the same
 * transaction as the share item, so access checks read a group's shares with its GetItem; so does a
 * project item its own (the groups a project is shared with).
 * `storageMoveId` names the storage move holding the container, from scheduling until that move
 * ends (functions/moves/keys.ts).
 */
import { pad } from "../../platform/db/table.js";

export type ContainerKind = "project" | "snippet" | "group";
export const CONTAINER_KINDS: readonly ContainerKind[] = ["project", "snippet", "group"];

export const containerKey = (kind: ContainerKind, id: number) => ({ pk: `${kind.toUpperCase()}#${id}`, sk: kind.toUpperCase() });
export const storageIndexKeys = (kind: ContainerKind, storage: string, id: number) => ({ gsi2pk: storageIndexPk(kind, storage), gsi2sk: pad(id) });
export const storageIndexPk = (kind: ContainerKind, storage: string) => `STORAGE#${storage}#${kind}`;
export const allProjectsIndex = (id: number) => ({ gsi1pk: "PROJECTS", gsi1sk: pad(id) });
export const allGroupsIndex = (id: number) => ({ gsi1pk: "GROUPS", gsi1sk: pad(id) });
export const snippetsOfAuthorIndex = (userId: number, id: number) => ({ gsi1pk: `USER#${userId}#SNIPPETS`, gsi1sk: pad(id) });
/** A project's snippets (they are not in their author's personal list). */
export const snippetsOfProjectIndex = (projectId: number, id: number) => ({ gsi1pk: `PROJECT#${projectId}#SNIPPETS`, gsi1sk: pad(id) });
export const memberKey = (kind: "project" | "group", containerId: number, userId: number) => ({
  pk: `${kind.toUpperCase()}#${containerId}`,
  sk: `MEMBER#${pad(userId)}`,
});
export const membershipsOfUserIndex = (kind: "project" | "group", userId: number, containerId: number) => ({
  gsi1pk: `USER#${userId}#${kind.toUpperCase()}S`,
  gsi1sk: pad(containerId),
});
/** A fork, in its source's partition: the source's fork list is one Query. */
export const forkLinkKey = (sourceId: number, forkId: number) => ({ pk: `PROJECT#${sourceId}`, sk: `FORK#${pad(forkId)}` });
export const FORK_LINK_PREFIX = "FORK#";
/**
 * A project's HTTP fetches of one day (`YYYY-MM-DD`, UTC), in the project's partition: the last 30
 * days are one Query of a sort-key range; each item expires (`expireAt`) once out of that window.
 */
export const dailyFetchKey = (projectId: number, date: string) => ({ pk: `PROJECT#${projectId}`, sk: `${DAILY_FETCH_PREFIX}${date}` });
export const DAILY_FETCH_PREFIX = "FETCHES#";
/**
 * A comment on a commit (GitLab's commit note), in its project's partition under the commit's id:
 * a commit's comments, oldest first, are one Query of a sort-key prefix; a project's, one Query too.
 */
export const commitNoteKey = (projectId: number, commitId: string, noteId: number) => ({ pk: `PROJECT#${projectId}`, sk: `${commitNotesPrefix(commitId)}${pad(noteId)}` });
export const commitNotesPrefix = (commitId?: string) => (commitId ? `COMMIT_NOTE#${commitId}#` : "COMMIT_NOTE#");
/** Marks a project or subgroup as a child of its group, so "is this group empty?" is one Query. */
export const groupChildKey = (groupId: number, kind: "project" | "group", id: number) => ({ pk: `GROUP#${groupId}`, sk: `CHILD#${kind}#${pad(id)}` });
/**
 * A project in a user's personal namespace, in that user's partition: `GET /users/:id/projects`
 * reads these (with the listing attributes) instead of every project the user is a member of.
 */
export const PERSONAL_PROJECT_PREFIX = "PROJECT#";
export const personalProjectKey = (userId: number, projectId: number) => ({ pk: `USER#${userId}`, sk: `${PERSONAL_PROJECT_PREFIX}${pad(projectId)}` });
/**
 * A group shared with another group (GitLab's group link): its uniqueness and, through the index,
 * the invited group's side (its members' group lists); access reads the shared group's `shares`.
 */
export const groupShareKey = (sharedGroupId: number, withGroupId: number) => ({ pk: `GROUP#${sharedGroupId}`, sk: `SHARE#${pad(withGroupId)}` });
export const sharesOfGroupRange = (sharedGroupId: number) => ({ pk: `GROUP#${sharedGroupId}`, skPrefix: "SHARE#" });
export const sharedWithIndex = (withGroupId: number, sharedGroupId: number) => ({ gsi1pk: sharedWithIndexPk(withGroupId), gsi1sk: pad(sharedGroupId) });
export const sharedWithIndexPk = (withGroupId: number) => `SHARED#WITH#${withGroupId}`;
/**
 * A project shared with a group (GitLab's project group link): its uniqueness and, through the index,
 * the group's side (`GET /groups/:id/projects/shared`, its members' project lists); access reads the
 * project item's `shares`.
 */
export const projectShareKey = (projectId: number, withGroupId: number) => ({ pk: `PROJECT#${projectId}`, sk: `SHARE#${pad(withGroupId)}` });
export const projectSharesRange = (projectId: number) => ({ pk: `PROJECT#${projectId}`, skPrefix: "SHARE#" });
export const projectsSharedWithIndex = (withGroupId: number, projectId: number) => ({ gsi1pk: projectsSharedWithIndexPk(withGroupId), gsi1sk: pad(projectId) });
export const projectsSharedWithIndexPk = (withGroupId: number) => `PROJECTS#SHARED#WITH#${withGroupId}`;
/** A pending request to join a project or group (GitLab's access requester), in the container's partition. */
export const accessRequestKey = (kind: "project" | "group", containerId: number, userId: number) => ({ pk: `${kind.toUpperCase()}#${containerId}`, sk: `REQUEST#${pad(userId)}` });
export const accessRequestsRange = (kind: "project" | "group", containerId: number) => ({ pk: `${kind.toUpperCase()}#${containerId}`, skPrefix: "REQUEST#" });
export const pathClaimKey = (fullPath: string) => ({ pk: `NAMESPACE#${fullPath.toLowerCase()}`, sk: "NAMESPACE" });
export const visibleMarkerKey = (kind: ContainerKind, id: number) => ({ pk: `VISIBLE#${kind}`, sk: pad(id) });
/** The marker of a group waiting for the group-deletion job; the partition lists every pending deletion. */
export const PENDING_GROUP_DELETIONS = "GROUPDELETIONS";
export const pendingGroupDeletionKey = (groupId: number) => ({ pk: PENDING_GROUP_DELETIONS, sk: `GROUP#${pad(groupId)}` });
export type ProjectOrderField = "name" | "path" | "updated_at" | "last_activity_at";
export const projectOrderKey = (field: ProjectOrderField, audience: "all" | "visible", sortValue: string) => ({ pk: projectOrderPk(field, audience), sk: sortValue });
export const projectOrderPk = (field: ProjectOrderField, audience: "all" | "visible") => `PROJECTS#BY#${field}#${audience}`;

/**
 * A user's contribution to a project (GitLab's contribution events: pushes and comments), in the
 * user's partition, one item per project with its last time: `GET /users/:id/contributed_projects`
 * is one Query; each item expires (`expireAt`) a year after its last contribution.
 */
export const CONTRIBUTION_PREFIX = "CONTRIBUTED#";
export const contributionKey = (userId: number, projectId: number) => ({ pk: `USER#${userId}`, sk: `${CONTRIBUTION_PREFIX}${pad(projectId)}` });
