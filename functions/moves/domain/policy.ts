/**
 * The rules a move must satisfy before anything changes: who may move group wikis, which storage
 * names are valid, and where a move without a destination goes. Each rule throws in the shape of
 * the API that asked (Grape's `{"error":…}` for bulk, ActiveRecord's `{"message":{…}}` per container).
 */
import { forbidden, paramError, validationError } from "../../platform/http/errors.js";
import { instanceConfig, storageNames, type InstanceConfig } from "../../platform/config.js";
import { pickStorage } from "../../identity/domain/settings.js";
import type { MoveKind } from "../keys.js";

/** GitLab offers group (wiki) repository moves on self-managed Premium and Ultimate only. */
export const groupMovesAllowed = (config: Pick<InstanceConfig, "tier" | "offering"> = instanceConfig()) =>
  config.offering === "self-managed" && (config.tier === "premium" || config.tier === "ultimate");

/** The types a move can be of here: group wikis only where group moves exist. */
export const movableKinds = (config: Pick<InstanceConfig, "tier" | "offering"> = instanceConfig()): MoveKind[] =>
  groupMovesAllowed(config) ? ["project", "snippet", "group"] : ["project", "snippet"];

export function assertGroupMovesAllowed(config: Pick<InstanceConfig, "tier" | "offering"> = instanceConfig()): void {
  if (groupMovesAllowed(config)) return;
  throw forbidden(
    `group repository storage moves need a self-managed instance on the Premium or Ultimate tier (this instance: ${config.offering}, ${config.tier})`,
  );
}

export const isStorage = (name: string) => storageNames().includes(name);

/** Bulk POST: Grape's `values:` validator on both names. */
export function assertBulkStorages(source: string, destination: string | undefined): void {
  const invalid = [
    ...(isStorage(source) ? [] : ["source_storage_name"]),
    ...(destination === undefined || isStorage(destination) ? [] : ["destination_storage_name"]),
  ];
  if (invalid.length) throw paramError(invalid.map((n) => `${n} does not have a valid value`).join(", "));
  if (destination === source) throw paramError("destination_storage_name must be different from source_storage_name");
}

/**
 * Per-container POST: the destination, given or picked by weight among the other storages.
 * Same-storage moves are refused: copying a repository onto itself and then deleting the "source"
 * is exactly the data-loss defect GitLab once shipped.
 */
export async function resolveDestination(source: string, requested: string | undefined | null): Promise<string> {
  if (requested !== undefined && requested !== null) {
    if (!isStorage(requested)) throw validationError({ destination_storage_name: ["is not included in the list"] });
    if (requested === source) throw validationError({ destination_storage_name: ["must be different from source_storage_name"] });
    return requested;
  }
  const picked = await pickStorage([source]);
  if (!picked) throw validationError({ destination_storage_name: [noOtherStorage] });
  return picked;
}

export const noOtherStorage =
  "can't be blank: no storage other than the source has a weight above 0 in repository_storages_weighted";
