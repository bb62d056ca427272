/**
 * Backup and restore of a whole instance: every table item and every repository of every storage in
 * one archive — the recommended way to migrate an instance to any storage layout (copying
 * repository directories by hand is unsafe, and impossible for cluster storages).
 *
 * ## Archive format (version 2; version 1 is still read)
 * One POSIX tar file (ustar, with pax headers for paths ustar cannot hold and files over 8 GiB,
 * headers by node-tar), so `tar tf` lists it; the first entry's pax `comment` names the format:
 * - `repositories/<project|project-wiki|snippet|group>/<id>/…` — verified copies of each bare
 *   repository's files (a group's repository is its wiki; a project's wiki is `project-wiki`, copied
 *   under the project's lease), each entry with its own sha256 in the manifest;
 * - `table/items-NNNN.jsonl` — every table item, one per line in DynamoDB JSON (binary as base64),
 *   up to 5000 items or 8 MiB per file (tokens are stored as hashes, so none is in clear);
 * - `manifest.json`, LAST: format and version, created_at, the source table and storages, counts
 *   (items, repositories, files, bytes, items left out), each repository's storage, path and Git
 *   refs checksum, the sha256 and size of every entry, `archive_sha256` (every byte before the
 *   manifest that is not entry content: headers, pax records, padding; version 1 hashed content
 *   too) and `manifest_sha256` (the manifest's own hash).
 *
 * ## Consistency guarantee (backup of a running instance)
 * Table first, then repositories. The table is read with one strongly consistent Scan; each item is
 * as it was when the Scan read it. Each repository is then copied while the backup holds its write
 * lease — the lease every commit, wiki edit and snippet update takes — so each repository is
 * read-consistent: a state some write left it in, never half a write. Its container item (project,
 * snippet, group) is archived as read under that lease, so item and repository always agree on
 * storage and content. A repository that is read-only or held by a storage move is waited for
 * (FORGELINE_BACKUP_WAIT_MS, default 10 min), so no archive holds a repository mid-move, and moves
 * open at the Scan are archived in their final state. A container deleted after the Scan is left
 * out together with its items (members, path claim, markers). Across items there is no single
 * point in time: items changed during the backup may be archived before or after the change —
 * quiesce writes for an exact point-in-time copy.
 *
 * ## Restore and "empty"
 * Restore verifies the whole archive before writing anything, then stages every repository in
 * every replica of its (mapped, `old=new`) storage and checks its refs checksum there, then makes
 * it all live: the table's items replaced, then the repositories renamed into place (all or
 * nothing; see `restore.ts`). The target must be empty: nothing in its table but the bootstrap marker, id
 * counters, application settings and one user `root` with its claims and tokens — what a fresh
 * `npm start` creates. Those bootstrap items are replaced by the archive's (the archive's tokens
 * work afterwards, the fresh instance's do not). `--force` restores into a non-empty instance by
 * replacing its items and their repositories.
 *
 * ## Running against AWS
 * The same code runs through the AWS SDK: run the CLI on a host that mounts the EFS storages where
 * the instance configuration (`FORGELINE_CONFIG_JSON`) says, with `SST_RESOURCE_Main` naming the
 * table (`npx sst shell --stage <stage> -- npm run backup -- <file>`). IAM permissions needed, on
 * the table (`arn:aws:dynamodb:<region>:<account>:table/<table>`):
 * - backup:  `dynamodb:DescribeTable`, `dynamodb:Scan`, `dynamodb:GetItem`, `dynamodb:UpdateItem`
 *   (the write lease is a conditional UpdateItem);
 * - restore: `dynamodb:DescribeTable`, `dynamodb:Scan`, `dynamodb:BatchWriteItem` (puts and deletes);
 * - inventory: `dynamodb:Query` on the table's `gsi2` index (`…/table/<table>/index/gsi2`).
 * Plus read (backup) or read-write (restore) access to every storage directory, including every
 * replica of a cluster storage (the EFS access points `stacks/storage.ts` creates).
 */
export { backup, type BackupOptions, type BackupSummary } from "./backup.js";
export { restore, type RestoreOptions, type RestoreSummary } from "./restore.js";
export { verifyArchive } from "./verify.js";
export { parseMapping, type StorageMapping } from "./mapping.js";
export { ArchiveError, BackupError, NotEmptyError } from "./errors.js";
