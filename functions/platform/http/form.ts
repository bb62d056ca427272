/**
 * Form parameters as GitLab (Grape on Rack) reads them, so form-encoded and multipart clients send
 * the same structures JSON clients do: the curl lines of GitLab's documentation
 * (`--data "scopes[]=api"`), the Ruby `gitlab` gem, python-gitlab's form posts.
 *
 *   name=x                         → { name: "x" }
 *   scopes[]=api&scopes[]=read_api  → { scopes: ["api", "read_api"] }
 *   weights[default]=100            → { weights: { default: "100" } }
 *   actions[][action]=create&actions[][file_path]=a&actions[][action]=delete
 *                                   → { actions: [{ action: "create", file_path: "a" }, { action: "delete" }] }
 *
 * Values stay strings; the schemas coerce them (`int()`, `bool()`) as they do for query strings.
 * A key that contradicts an earlier one (`a=1&a[b]=2`) is refused, as Rack refuses it.
 */
import { paramError } from "./errors.js";

type Node = string | Node[] | { [key: string]: Node };

/** Deepest nesting accepted (Rack's default is 100; nothing GitLab documents goes past 3). */
const MAX_DEPTH = 8;

export function parseFormParams(entries: Iterable<[string, string]>): Record<string, Node> {
  const root: Record<string, Node> = {};
  for (const [key, value] of entries) {
    const path = splitKey(key);
    if (!path) throw paramError(`${key} is not a valid parameter name`);
    assign(root, path, value, key);
  }
  return root;
}

/** `a[b][]` → ["a", "b", ""]; undefined for malformed brackets. */
function splitKey(key: string): string[] | undefined {
  const m = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!m) return undefined;
  const rest = [...m[2]!.matchAll(/\[([^[\]]*)\]/g)].map((x) => x[1]!);
  return rest.length > MAX_DEPTH ? undefined : [m[1]!, ...rest];
}

function assign(container: Record<string, Node>, path: string[], value: string, key: string): void {
  const [head, ...tail] = path as [string, ...string[]];
  if (tail.length === 0) {
    container[head] = value;
    return;
  }
  const [next, ...after] = tail as [string, ...string[]];
  if (next === "") {
    const list = (container[head] ??= []);
    if (!Array.isArray(list)) throw conflict(key);
    if (after.length === 0) {
      list.push(value);
      return;
    }
    // `a[][x]=…`: fill the last hash until it already has this field, then start a new one (Rack).
    let last = list[list.length - 1];
    if (!isHash(last) || has(last, after)) list.push((last = {}));
    assign(last as Record<string, Node>, after, value, key);
    return;
  }
  const hash = (container[head] ??= {});
  if (!isHash(hash)) throw conflict(key);
  assign(hash, tail, value, key);
}

function isHash(node: Node | undefined): node is { [key: string]: Node } {
  return typeof node === "object" && node !== null && !Array.isArray(node);
}

/** Rack's `params_hash_has_key?`: a key with `[]` in it never counts as present. */
function has(hash: { [key: string]: Node }, path: string[]): boolean {
  if (path.includes("")) return false;
  let node: Node | undefined = hash;
  for (const part of path) {
    if (!isHash(node) || !(part in node)) return false;
    node = node[part];
  }
  return true;
}

function conflict(key: string) {
  return paramError(`${key} conflicts with another parameter of the same name`);
}
