/**
 * Data: the single DynamoDB table, and the repository storages on EFS.
 *
 * Storage list (the stage config), first found wins:
 *   1. env `FORGELINE_STORAGES`: inline JSON, e.g. `{"default":{"kind":"local"}}`;
 *   2. `forgeline.storages.<stage>.json` at the app root;
 *   3. `forgeline.storages.json` at the app root;
 *   4. the default: `default` (local) + `cluster` (3 replicas).
 * Format: `{ "<name>": {"kind":"local"} | {"kind":"cluster","replicas":N} }`.
 *
 * Lambda allows one file-system mount per function, so storage-touching functions mount the storages
 * root (`/storages` on EFS) at `/mnt/storages` and each storage is a directory below it. The
 * per-storage access points create those directories with the right owner on the first deploy and
 * are the handle for compute that should see one storage only.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  defaultStageStorages,
  EFS_STORAGES_ROOT,
  mainTable,
  parseStageStorages,
  storageLayout,
  type StageStorages,
} from "./plan";

export const table = new sst.aws.Dynamo("Main", {
  fields: mainTable.fields,
  primaryIndex: mainTable.primaryIndex,
  globalIndexes: mainTable.globalIndexes,
  ttl: mainTable.ttl,
});

function stageStorages(): StageStorages {
  const inline = process.env.FORGELINE_STORAGES;
  if (inline) return parseStageStorages(JSON.parse(inline), "FORGELINE_STORAGES");
  // SST runs `run()` with the app root as working directory.
  for (const file of [`forgeline.storages.${$app.stage}.json`, "forgeline.storages.json"]) {
    const path = join(process.cwd(), file);
    if (existsSync(path)) return parseStageStorages(JSON.parse(readFileSync(path, "utf8")), file);
  }
  return defaultStageStorages;
}

export const layout = storageLayout(stageStorages());

/** Repository files are owned by this POSIX user, whichever Lambda writes them. */
const owner = { uid: 1000, gid: 1000 };
const creationInfo = { ownerUid: owner.uid, ownerGid: owner.gid, permissions: "0750" };

// NAT so VPC Lambdas still reach DynamoDB, SQS and Step Functions; "ec2" (fck-nat) is the cheap kind.
export const vpc = new sst.aws.Vpc("Vpc", { nat: "ec2" });

export const efs = new sst.aws.Efs("Storages", {
  vpc,
  transform: {
    // The access point Lambdas mount: the storages root, not the file system root, as a non-root user.
    accessPoint: (args) => {
      args.rootDirectory = { path: EFS_STORAGES_ROOT, creationInfo };
      args.posixUser = owner;
    },
  },
});

export const storageAccessPoints = layout.accessPoints.map(
  (ap) =>
    new aws.efs.AccessPoint(`Storage${ap.name}`, {
      fileSystemId: efs.id,
      rootDirectory: { path: ap.path, creationInfo },
      posixUser: owner,
    }),
);

/** Instance config for every function (`functions/platform/config.ts` reads `FORGELINE_CONFIG_JSON`). */
export const instanceConfigJson = JSON.stringify({ storages: layout.storages });
