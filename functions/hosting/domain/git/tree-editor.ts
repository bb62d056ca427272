/**
 * An in-memory, lazily loaded view of a commit's tree that applies file edits and writes back only
 * the folders that changed. Editing k files in a repository of n files reads and writes O(k × depth)
 * tree objects instead of rebuilding every tree (O(n)) per edit.
 */
import { gitFs as fs } from "./git-fs.js";
import { git } from "./engine.js";
import type { TreeEntry } from "isomorphic-git";
import { GitActionError } from "./errors.js";
import type { ObjectCache } from "./refs.js";

/** A blob (file or symlink) or a submodule commit inside a tree. */
export interface Leaf {
  kind: "leaf";
  mode: string;
  oid: string;
}

class Dir {
  readonly kind = "dir";
  /** Undefined until first read; a brand-new folder starts with an empty map. */
  children: Map<string, Node> | undefined;
  dirty = false;
  constructor(public oid: string | undefined) {
    if (!oid) this.children = new Map();
  }
}

export type Node = Leaf | Dir;

export class TreeEditor {
  private readonly root: Dir;

  constructor(
    private readonly gitdir: string,
    private readonly cache: ObjectCache,
    rootTreeOid: string | undefined,
  ) {
    this.root = new Dir(rootTreeOid);
  }

  /** The file or folder at `parts`, or undefined when absent (or when a parent is a file). */
  async get(parts: string[]): Promise<Node | undefined> {
    let node: Node = this.root;
    for (const part of parts) {
      if (node.kind !== "dir") return undefined;
      const next: Node | undefined = (await this.load(node)).get(part);
      if (!next) return undefined;
      node = next;
    }
    return node;
  }

  /** Puts a file at `parts`, creating folders on the way. */
  async setLeaf(parts: string[], leaf: Leaf): Promise<void> {
    const { dir, name } = await this.parentOf(parts, true);
    (await this.load(dir)).set(name, leaf);
  }

  async remove(parts: string[]): Promise<void> {
    const { dir, name } = await this.parentOf(parts, false);
    (await this.load(dir)).delete(name);
  }

  /** Writes the changed folders and returns the root tree id. Emptied folders disappear, as in git. */
  async write(): Promise<string> {
    return (await this.writeDir(this.root, true))!;
  }

  private async parentOf(parts: string[], create: boolean): Promise<{ dir: Dir; name: string }> {
    let dir = this.root;
    dir.dirty = true;
    for (const part of parts.slice(0, -1)) {
      const children = await this.load(dir);
      let next = children.get(part);
      if (!next && create) {
        next = new Dir(undefined);
        children.set(part, next);
      }
      // A file sits where the path needs a folder.
      if (!next || next.kind !== "dir") throw new GitActionError("A file with this name already exists");
      next.dirty = true;
      dir = next;
    }
    return { dir, name: parts[parts.length - 1]! };
  }

  private async load(dir: Dir): Promise<Map<string, Node>> {
    if (dir.children) return dir.children;
    const children = new Map<string, Node>();
    const { tree } = await git.readTree({ fs, gitdir: this.gitdir, oid: dir.oid!, cache: this.cache });
    for (const entry of tree) {
      children.set(entry.path, entry.type === "tree" ? new Dir(entry.oid) : { kind: "leaf", mode: entry.mode, oid: entry.oid });
    }
    dir.children = children;
    return children;
  }

  private async writeDir(dir: Dir, isRoot: boolean): Promise<string | undefined> {
    if (!dir.dirty && dir.oid) return dir.oid;
    const entries: TreeEntry[] = [];
    for (const [name, node] of await this.load(dir)) {
      if (node.kind === "leaf") {
        entries.push({ mode: node.mode, path: name, oid: node.oid, type: node.mode === "160000" ? "commit" : "blob" });
        continue;
      }
      const oid = await this.writeDir(node, false);
      if (oid) entries.push({ mode: "040000", path: name, oid, type: "tree" });
    }
    // git never records empty folders; the root is the exception (an empty commit of an empty repo).
    if (entries.length === 0 && !isRoot) return undefined;
    dir.oid = await git.writeTree({ fs, gitdir: this.gitdir, tree: entries });
    dir.dirty = false;
    return dir.oid;
  }
}
