/**
 * What a move needs to know about the three kinds of container that own a repository: how to find
 * one, what its repository is called in messages, and how a move record nests it.
 */
import { getItem, getItems } from "../../platform/db/table.js";
import { containerKey } from "../../hosting/domain/keys.js";
import { resolveProject, type Project } from "../../hosting/domain/projects.js";
import { projectIdentity } from "../../hosting/domain/project-view.js";
import { findSnippet, basicSnippetView, type Snippet } from "../../hosting/domain/snippets.js";
import { resolveGroup, type Group } from "../../hosting/domain/groups.js";
import type { MoveKind } from "../keys.js";
import type { WriteLease } from "../../hosting/domain/write-path.js";
import type { RecordedSizes } from "../../hosting/domain/repository-size.js";

export const kindInfo: Record<MoveKind, { notFound: string; repositoryType: string }> = {
  project: { notFound: "Project", repositoryType: "project" },
  snippet: { notFound: "Snippet", repositoryType: "snippet" },
  // A group move moves the group's wiki repository only, which GitLab calls a "wiki" repository.
  group: { notFound: "Group", repositoryType: "wiki" },
};

/** The repository state every container item carries (see hosting/domain/keys.ts), sizes included. */
export interface ContainerRepository extends RecordedSizes {
  id: number;
  storage?: string;
  relativePath?: string;
  readOnly?: boolean;
  storageMoveId?: number;
  writeLease?: WriteLease;
}

export type AnyContainer = ContainerRepository & Partial<Project & Snippet & Group>;

export async function loadContainer(kind: MoveKind, id: number): Promise<AnyContainer | undefined> {
  const key = containerKey(kind, id);
  return getItem<AnyContainer>(key.pk, key.sk);
}

/** The containers of several moves in one batch read, in the order given (undefined where deleted). */
export function containersOf(moves: Array<{ kind: MoveKind; containerId: number }>): Promise<Array<AnyContainer | undefined>> {
  return getItems<AnyContainer>(moves.map((m) => containerKey(m.kind, m.containerId)));
}

/** `:id` of a per-container route: projects and groups also accept a URL-encoded full path. */
export async function resolveContainer(kind: MoveKind, idOrPath: string): Promise<AnyContainer | undefined> {
  if (kind === "project") return resolveProject(idOrPath);
  if (kind === "group") return resolveGroup(idOrPath);
  return /^\d+$/.test(idOrPath) ? findSnippet(Number(idOrPath)) : undefined;
}

/** The nested `project` / `snippet` / `group` object of a move record, as GitLab shows it. */
export function nestedView(kind: MoveKind, container: AnyContainer | undefined, baseUrl: string): Record<string, unknown> | null {
  if (!container) return null; // deleted after its move finished
  if (kind === "project") return projectIdentity(container as Project);
  if (kind === "snippet") return basicSnippetView(container as Snippet, baseUrl);
  const group = container as Group;
  return { id: group.id, web_url: `${baseUrl}/groups/${group.fullPath}`, name: group.name };
}

/** How GitLab's bulk log names a container: its full path (snippets have none, so their id). */
export function displayPath(kind: MoveKind, c: AnyContainer): string {
  if (kind === "project" && c.namespace && c.path) return `${c.namespace.fullPath}/${c.path}`;
  if (kind === "group" && c.fullPath) return c.fullPath;
  return `${kind}/${c.id}`;
}
