/**
 * `npm run restore -- <file> [old=new …] [--force] [--progress]`: restores an archive into an
 * empty instance, optionally moving repositories onto other storages (`default=cluster`), all or
 * nothing: the archive is verified completely and staged before the instance changes. A non-empty
 * instance is refused unless `--force`, which replaces everything in it; an instance a killed
 * restore left is finished by running that restore again. See functions/backup/restore.ts.
 */
import { resolve } from "node:path";
import { openInstance, parseArgs, runCli, UsageError } from "../functions/backup/cli.js";
import { parseMapping } from "../functions/backup/mapping.js";
import { formatBytes, Progress } from "../functions/backup/progress.js";
import { restore } from "../functions/backup/restore.js";

const USAGE = "npm run restore -- <file> [old=new ...] [--force] [--progress]";

await runCli(USAGE, async () => {
  const args = parseArgs(process.argv.slice(2), ["--force", "--progress"]);
  const [file, ...mappingArgs] = args.positional;
  if (!file) throw new UsageError("Give the archive file name.");
  const mapping = parseMapping(mappingArgs);
  const instance = await openInstance({ mustExist: false, forRestore: true });
  try {
    console.error(`Restoring into ${instance.describe}`);
    const s = await restore({ file: resolve(file), mapping, force: args.flags.has("--force"), progress: Progress.create(args.flags.has("--progress")) });
    const moved = Object.entries(mapping).map(([a, b]) => `${a} → ${b}`).join(", ");
    console.log(
      `Restored ${s.items} table items and ${s.repositories} repositories (${formatBytes(s.bytes)}) in ${s.seconds.toFixed(1)} s` +
        (moved ? `, storages mapped ${moved}` : "") +
        `. The backup was taken ${s.manifest.created_at}.` +
        // Processes cache a few reads briefly (token lookups, academic lists): a restart forgets them at once.
        (instance.how === "stand-ins" ? "" : " Restart the running instance's processes so none serves data cached from before the restore."),
    );
  } finally {
    await instance.close();
  }
});
