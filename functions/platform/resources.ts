/**
 * Names of the linked AWS resources. On AWS, SST links inject them (`Resource.<Name>`); the local
 * runtime and the tests set the same `SST_RESOURCE_<Name>` environment variables before loading any
 * handler, so one code path serves both.
 */
import { Resource } from "sst";

type Linked = { name?: string; url?: string; arn?: string; value?: string };

export function linked(name: string): Linked {
  // Read through the env first so a process that sets links after import (tests) still sees them.
  const raw = process.env[`SST_RESOURCE_${name}`];
  if (raw) return JSON.parse(raw) as Linked;
  try {
    return (Resource as unknown as Record<string, Linked>)[name] ?? {};
  } catch {
    // SST's Resource throws for a name it has no link for (e.g. an optional secret, or locally).
    return {};
  }
}

export function required(value: string | undefined, what: string): string {
  if (!value) throw new Error(`${what} is not linked to this function`);
  return value;
}

export const resources = {
  /** The single DynamoDB table (keys named by access pattern, see platform/db/keys.ts). */
  mainTable: () => required(linked("Main").name, "Main table"),
  /** SQS queue that buffers error-tracking ingestion. */
  ingestQueueUrl: () => required(linked("IngestQueue").url, "IngestQueue"),
  /** The repository storage move state machine. */
  storageMoveMachineArn: () => required(linked("StorageMoveMachine").arn, "StorageMoveMachine"),
  /** The first administrator's token on AWS (`sst secret set BootstrapAdminToken …`); empty = none. */
  bootstrapAdminToken: () => process.env.FORGELINE_BOOTSTRAP_ADMIN_TOKEN || linked("BootstrapAdminToken").value || undefined,
};
