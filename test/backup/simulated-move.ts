/**
 * A storage move reduced to what a backup must respect, driven directly (independent of the moves
 * context's state machine): the container is marked read-only and held (`storageMoveId`), the
 * repository is copied to the destination and switched, and only later is the hold released and the
 * source copy removed — the same sequence and item attributes as `functions/moves/domain`.
 */
import { removeRepository, replicate } from "../../functions/hosting/domain/git/index.js";
import { containerKey, storageIndexPk } from "../../functions/hosting/domain/keys.js";
import { getItem, updateItem } from "../../functions/platform/db/table.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Holds the project at once; `done` is the rest of the move, which runs in the background. */
export async function startSimulatedMove(projectId: number, destination: string): Promise<{ done: Promise<void> }> {
  const key = containerKey("project", projectId);
  const item = (await getItem<{ storage: string; relativePath: string }>(key.pk, key.sk))!;
  await updateItem({ ...key, update: "SET readOnly = :t, storageMoveId = :m", values: { ":t": true, ":m": 424242 } });
  const rest = async () => {
    await sleep(800);
    await replicate({ storage: item.storage, rel: item.relativePath }, { storage: destination, rel: item.relativePath });
    await updateItem({
      ...key,
      update: "SET #s = :d, gsi2pk = :g, readOnly = :f",
      names: { "#s": "storage" },
      values: { ":d": destination, ":g": storageIndexPk("project", destination), ":f": false },
    });
    await sleep(800); // switched and writable, but still held until the source copy is gone
    await removeRepository(item.storage, item.relativePath);
    await updateItem({ ...key, update: "REMOVE storageMoveId" });
  };
  return { done: rest() };
}
