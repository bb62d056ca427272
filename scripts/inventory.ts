/**
 * `npm run inventory [-- --json]`: per configured storage, how many projects (and project wikis), snippets and group
 * wikis live there and their total size, and the stray temporary folders and git leftovers (a
 * killed push's incoming objects) a crash left and the bytes they hold — the same answer as
 * `GET /api/v4/repository_storages/inventory`, as a table. Joins a running `npm start` on the data
 * folder or starts its own stand-ins, like backup and restore (functions/backup/cli.ts).
 */
import { openInstance, parseArgs, runCli, UsageError } from "../functions/backup/cli.js";
import { formatBytes } from "../functions/backup/progress.js";
import { storageInventory, type StorageInventory } from "../functions/inventory/domain/inventory.js";

const USAGE = "npm run inventory [-- --json]";

function table(rows: StorageInventory[]): string {
  const head = ["storage", "kind", "replicas", "projects", "size", "project wikis", "size", "snippets", "size", "group wikis", "size", "stray folders", "size", "git leftovers", "size"];
  const body = rows.map((r) => [
    r.name,
    r.kind,
    String(r.replicas),
    String(r.projects.count),
    formatBytes(r.projects.size_bytes),
    String(r.project_wikis.count),
    formatBytes(r.project_wikis.size_bytes),
    String(r.snippets.count),
    formatBytes(r.snippets.size_bytes),
    String(r.group_wikis.count),
    formatBytes(r.group_wikis.size_bytes),
    String(r.stray_folders.count),
    formatBytes(r.stray_folders.size_bytes),
    String(r.git_leftovers.count),
    formatBytes(r.git_leftovers.size_bytes),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
  // Names left-aligned, numbers right-aligned, as `df` does.
  const line = (cells: string[]) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  return [line(head), line(widths.map((w) => "-".repeat(w))), ...body.map(line)].join("\n");
}

await runCli(USAGE, async () => {
  const args = parseArgs(process.argv.slice(2), ["--json"]);
  if (args.positional.length) throw new UsageError("inventory takes no arguments.");
  const instance = await openInstance({ mustExist: true });
  try {
    const rows = await storageInventory();
    if (args.flags.has("--json")) console.log(JSON.stringify(rows, null, 2));
    else console.log(`Repositories per storage of ${instance.describe}:\n\n${table(rows)}`);
  } finally {
    await instance.close();
  }
});
