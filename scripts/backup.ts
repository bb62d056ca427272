/**
 * `npm run backup -- <file> [--progress]`: writes one archive of the whole instance (every table
 * item, every repository of every storage, a manifest with checksums), consistent while the
 * service runs. See functions/backup/index.ts for the format, the guarantee and the AWS permissions.
 */
import { resolve } from "node:path";
import { backup } from "../functions/backup/backup.js";
import { openInstance, parseArgs, runCli, UsageError } from "../functions/backup/cli.js";
import { formatBytes, Progress } from "../functions/backup/progress.js";

const USAGE = "npm run backup -- <file> [--progress]";

await runCli(USAGE, async () => {
  const args = parseArgs(process.argv.slice(2), ["--progress"]);
  if (args.positional.length !== 1) throw new UsageError("Give exactly one archive file name.");
  const file = resolve(args.positional[0]!);
  const instance = await openInstance({ mustExist: true });
  try {
    console.error(`Backing up ${instance.describe}`);
    const s = await backup({ file, progress: Progress.create(args.flags.has("--progress")) });
    console.log(
      `Backup written to ${s.file}: ${s.items} table items, ${s.repositories} repositories (${s.files} files), ` +
        `${formatBytes(s.bytes)} of data, ${formatBytes(s.archiveBytes)} archive, in ${s.seconds.toFixed(1)} s` +
        (s.droppedItems ? ` (${s.droppedItems} items of containers deleted during the backup left out)` : ""),
    );
  } finally {
    await instance.close();
  }
});
