/**
 * When is a target instance "empty"? When its table holds nothing but what a fresh `npm start` (or a
 * fresh deployment) creates by itself:
 * - the bootstrap marker (`BOOTSTRAP`/`ADMIN`), the id counters (`SEQ#…`) and the local runtime's
 *   incarnation counter (`RUNTIME`/`INCARNATION`, never archived nor replaced);
 * - the application settings item (storage weights);
 * - one user, `root`, with its username and e-mail claims, its personal access tokens and the day
 *   they were last used.
 * Any project, group, snippet, other user, storage move, error-tracking or academic item — anything
 * else — makes it non-empty. Repositories are not looked at: without items pointing at them they are
 * not part of the instance, and restore replaces any directory in its way.
 *
 * Restore replaces the target's items (an empty instance's bootstrap items are deleted and the
 * archive's written); with `--force` it also replaces the repositories of a non-empty target. The
 * installation's own items (`restore-marker.ts`) are not the instance's: a restore marker is
 * reported as `interrupted`, and neither it nor the incarnation counter makes an instance non-empty.
 */
import { containerOf, repositoriesOf } from "./containers.js";
import { num, scanTable, str, keyOf, type RawItem } from "./table-io.js";
import { isInstallationKey, markerOf, RESTORE_MARKER_KEY, type RestoreMarker } from "./restore-marker.js";

export interface TargetState {
  repositories: Array<{ storage: string; relativePath: string }>;
  /** Descriptions of the items that make the instance non-empty (the first few). */
  found: string[];
  foundCount: number;
  /** What an interrupted restore left (it was making an archive live when it stopped). */
  interrupted: RestoreMarker | undefined;
}

const PROJECTION = ["pk", "sk", "username", "userId", "kind", "ownerId", "storage", "relativePath", "wikiRepository", "type", "archive", "file", "backupCreatedAt", "startedAt"];
const SHOWN = 5;

function describe(item: RawItem): string {
  const container = containerOf(item);
  if (container) return `${container.kind} ${container.id}`;
  if (str(item, "sk") === "USER") return `user ${str(item, "username") ?? str(item, "pk")}`;
  return `item ${str(item, "pk")}`;
}

export async function inspectTarget(): Promise<TargetState> {
  const items: RawItem[] = [];
  let interrupted: RestoreMarker | undefined;
  await scanTable(
    (page) => {
      for (const item of page) {
        const key = keyOf(item);
        if (key.pk === RESTORE_MARKER_KEY.pk && key.sk === RESTORE_MARKER_KEY.sk) interrupted = markerOf(item);
        if (!isInstallationKey(key)) items.push(item);
      }
    },
    { projection: PROJECTION },
  );
  const users = items.filter((i) => str(i, "sk") === "USER" && str(i, "pk")?.startsWith("USER#"));
  const root = users.length === 1 && str(users[0]!, "username") === "root" ? num(users[0]!, "id") ?? Number(str(users[0]!, "pk")!.slice(5)) : undefined;
  const bootstrap = (item: RawItem): boolean => {
    const { pk, sk } = keyOf(item);
    if (pk === "BOOTSTRAP" || pk.startsWith("SEQ#") || (pk === "SETTINGS" && sk === "APPLICATION")) return true;
    if (root === undefined) return false;
    // root itself, and the day its token was last used (`userActivityItem`: the first request writes it).
    if (pk === `USER#${root}` && (sk === "USER" || sk === "ACTIVITY")) return true;
    if (pk === "NAMESPACE#root") return str(item, "kind") === "user" && num(item, "ownerId") === root;
    if (pk.startsWith("EMAIL#") || pk.startsWith("PAT#")) return num(item, "userId") === root;
    return false;
  };
  const foreign = items.filter((i) => !bootstrap(i));
  // Containers and users first: they say more to an operator than counters or claims.
  const ranked = [...foreign.filter((i) => containerOf(i) || str(i, "sk") === "USER"), ...foreign.filter((i) => !containerOf(i) && str(i, "sk") !== "USER")];
  const shown = ranked.slice(0, SHOWN).map(describe);
  if (foreign.length > SHOWN) shown.push(`${foreign.length - SHOWN} more items`);
  return { repositories: items.flatMap(repositoriesOf), found: shown, foundCount: foreign.length, interrupted };
}
