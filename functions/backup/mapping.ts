/**
 * Storage-name mapping for restore (`old=new`): how an instance moves onto a different storage
 * layout, including onto a cluster storage. Rewritten on restore:
 * - a container's `storage` and its storage-index key `gsi2pk` (`STORAGE#<storage>#<kind>`), and
 *   its repository is written to every replica of the new storage;
 * - the storage weights (`repository_storages_weighted`): the new name takes the old one's weight
 *   and the old name gets 0, so new repositories keep landing where the old ones went.
 * Storage-move records are history and keep the names they were recorded with.
 */
import type { AttributeValue } from "@aws-sdk/client-dynamodb";
import { instanceConfig } from "../platform/config.js";
import { BackupError } from "./errors.js";
import { str, type RawItem } from "./table-io.js";

export type StorageMapping = Record<string, string>;

const NAME = /^[a-zA-Z0-9_.-]{1,64}$/;

/** Parses `old=new` arguments; a storage may be named once on the left. */
export function parseMapping(args: readonly string[]): StorageMapping {
  const mapping: StorageMapping = {};
  for (const arg of args) {
    const m = /^([^=]+)=([^=]+)$/.exec(arg);
    if (!m || !NAME.test(m[1]!) || !NAME.test(m[2]!)) throw new BackupError(`"${arg}" is not a storage mapping; write old=new, e.g. default=cluster`);
    if (Object.hasOwn(mapping, m[1]!)) throw new BackupError(`storage ${m[1]} is mapped twice`);
    mapping[m[1]!] = m[2]!;
  }
  return mapping;
}

export const mapStorage = (mapping: StorageMapping, storage: string) => (Object.hasOwn(mapping, storage) ? mapping[storage]! : storage);

/** Refuses, before anything is written, a mapping that leaves a repository on an unknown storage. */
export function checkMapping(mapping: StorageMapping, sourceStorages: string[], usedStorages: string[]): void {
  const unknownSources = Object.keys(mapping).filter((s) => !sourceStorages.includes(s));
  if (unknownSources.length) throw new BackupError(`the archive has no storage named ${unknownSources.join(", ")} (it has ${sourceStorages.join(", ")})`);
  const configured = Object.keys(instanceConfig().storages);
  const missing = [...new Set(usedStorages.map((s) => mapStorage(mapping, s)))].filter((s) => !configured.includes(s));
  if (missing.length) {
    throw new BackupError(
      `this instance has no storage named ${missing.join(", ")} (it has ${configured.join(", ")}); map each with old=new, e.g. ${missing[0]}=${configured[0]}. Nothing was restored`,
    );
  }
}

function remapWeights(weights: Record<string, AttributeValue>, mapping: StorageMapping): Record<string, AttributeValue> {
  const out: Record<string, number> = {};
  for (const [name, value] of Object.entries(weights)) {
    const target = mapStorage(mapping, name);
    out[target] = Math.max(out[target] ?? 0, Number(value.N ?? 0));
  }
  const targets = new Set(Object.values(mapping));
  for (const old of Object.keys(mapping)) if (!targets.has(old) && Object.hasOwn(weights, old)) out[old] = 0;
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, { N: String(v) }]));
}

export function rewriteItem(item: RawItem, mapping: StorageMapping): RawItem {
  if (Object.keys(mapping).length === 0) return item;
  const out: RawItem = { ...item };
  const storage = str(item, "storage");
  if (storage !== undefined) out.storage = { S: mapStorage(mapping, storage) };
  const gsi2pk = /^STORAGE#([^#]+)#(.+)$/.exec(str(item, "gsi2pk") ?? "");
  if (gsi2pk) out.gsi2pk = { S: `STORAGE#${mapStorage(mapping, gsi2pk[1]!)}#${gsi2pk[2]}` };
  const weights = item.repository_storages_weighted?.M;
  if (str(item, "pk") === "SETTINGS" && weights) out.repository_storages_weighted = { M: remapWeights(weights, mapping) };
  return out;
}
