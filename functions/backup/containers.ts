/**
 * What a backup must know about the table's items beyond their keys: which items are containers
 * that own a repository (hosting/domain/keys.ts), which items belong to a container (so they leave
 * the archive with it when it was deleted mid-backup), and which storage moves were still open.
 */
import { CONTAINER_KINDS, type ContainerKind } from "../hosting/domain/keys.js";
import { projectWikiPath } from "../hosting/domain/project-wiki.js";
import { isTerminal, type MoveState } from "../moves/domain/records.js";
import { num, str, type RawItem } from "./table-io.js";


export interface ContainerRef {
  kind: ContainerKind;
  id: number;
}

export interface RepositoryRef extends ContainerRef {
  storage: string;
  relativePath: string;
}

/** How the archive names a repository: its container's kind, or `project-wiki` for a project's wiki. */
export type RepositoryKind = ContainerKind | "project-wiki";

export const containerLabel = (c: { kind: string; id: number }) => `${c.kind} ${c.id}`;
export const containerId = (c: ContainerRef) => `${c.kind}:${c.id}`;

/** A project, snippet or group item: `pk = <KIND>#<id>`, `sk = <KIND>`. */
export function containerOf(item: RawItem): ContainerRef | undefined {
  const sk = str(item, "sk");
  const kind = CONTAINER_KINDS.find((k) => k.toUpperCase() === sk);
  if (!kind) return undefined;
  const m = /^[A-Z]+#(\d+)$/.exec(str(item, "pk") ?? "");
  return m ? { kind, id: Number(m[1]) } : undefined;
}

/** The container's repository, when it has one (a group has none before its first wiki page). */
export function repositoryOf(item: RawItem): RepositoryRef | undefined {
  const c = containerOf(item);
  const storage = str(item, "storage");
  const relativePath = str(item, "relativePath");
  return c && storage && relativePath ? { ...c, storage, relativePath } : undefined;
}

/**
 * Every repository the container owns, named as the archive names them: its own and, for a project
 * whose wiki exists (`wikiRepository`), the wiki beside it on the same storage.
 */
export function repositoriesOf(item: RawItem): Array<{ kind: RepositoryKind; id: number; storage: string; relativePath: string }> {
  const own = repositoryOf(item);
  if (!own) return [];
  const wiki = own.kind === "project" && item.wikiRepository?.BOOL === true;
  return wiki ? [own, { kind: "project-wiki", id: own.id, storage: own.storage, relativePath: projectWikiPath(own.relativePath) }] : [own];
}

/**
 * Whether `item` belongs to a container that no longer exists: its own partition (the container,
 * its members, a group's child markers), its path claim, its visibility marker and the marker in
 * its parent group — the items a deletion removes (see hosting/domain/projects.ts `deleteProject`).
 * Storage-move records stay: GitLab keeps them for deleted containers too.
 */
export function belongsToVanished(item: RawItem, vanished: Set<string>): boolean {
  if (vanished.size === 0) return false;
  const pk = str(item, "pk") ?? "";
  const sk = str(item, "sk") ?? "";
  const partition = /^(PROJECT|SNIPPET|GROUP)#(\d+)$/.exec(pk);
  if (partition && vanished.has(`${partition[1]!.toLowerCase()}:${partition[2]}`)) return true;
  if (pk.startsWith("NAMESPACE#")) {
    const kind = str(item, "kind");
    const owner = num(item, "ownerId");
    return kind !== undefined && owner !== undefined && vanished.has(`${kind}:${owner}`);
  }
  const visible = /^VISIBLE#(project|snippet|group)$/.exec(pk);
  if (visible && vanished.has(`${visible[1]}:${Number(sk)}`)) return true;
  const child = /^CHILD#(project|group)#(\d+)$/.exec(sk);
  return !!child && vanished.has(`${child[1]}:${Number(child[2])}`);
}

/** A storage-move record that had not reached a final state when the table was read. */
export function isOpenMove(item: RawItem): boolean {
  return str(item, "type") === "storage-move" && !isTerminal((str(item, "state") ?? "initial") as MoveState);
}

/**
 * The archived form of a container item: without the write lease (it belongs to a process of the
 * source instance — in the archive it would be the backup's own lease).
 */
export function withoutLease(item: RawItem): RawItem {
  const { writeLease: _lease, ...rest } = item;
  return rest;
}
