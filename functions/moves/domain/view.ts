/** GitLab's `BasicRepositoryStorageMove` entity plus the nested container, exactly its fields. */
import { containersOf, nestedView, type AnyContainer } from "./containers.js";
import type { MoveRecord } from "./records.js";

function view(move: MoveRecord, container: AnyContainer | undefined, baseUrl: string) {
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

export async function moveView(move: MoveRecord, baseUrl: string) {
  return (await moveViews([move], baseUrl))[0]!;
}

/** A page of moves with their containers read in one batch (not one read per move). */
export async function moveViews(moves: MoveRecord[], baseUrl: string) {
  const containers = await containersOf(moves);
  return moves.map((m, i) => view(m, containers[i], baseUrl));
}
