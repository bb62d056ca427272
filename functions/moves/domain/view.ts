/** GitLab's `BasicRepositoryStorageMove` entity plus the nested container, exactly its fields. */
import { loadContainer, nestedView } from "./containers.js";
import type { MoveRecord } from "./records.js";

export async function moveView(move: MoveRecord, baseUrl: string) {
  const container = await loadContainer(move.kind, move.containerId);
  return {
    id: move.id,
    created_at: move.createdAt,
    state: move.state,
    source_storage_name: move.sourceStorage,
    destination_storage_name: move.destinationStorage,
    error_message: move.errorMessage,
    [move.kind]: nestedView(move.kind, container, baseUrl),
  };
}

export const moveViews = (moves: MoveRecord[], baseUrl: string) => Promise.all(moves.map((m) => moveView(m, baseUrl)));
