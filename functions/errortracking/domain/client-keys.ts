/**
 * Client keys (GitLab `error_tracking_client_keys`): `glet_<32 hex>` public keys that SDKs put in the
 * DSN. Each key also gets a secret for the deprecated `public:secret@` DSN form that some clients
 * (the runner's note in the seed) demand; only its SHA-256 is stored, so the secret is shown once, in
 * the answer that creates the key. Items and indexes: `contracts.ts`.
 */
import { createHash, randomBytes } from "node:crypto";
import { deleteItem, getItem, nextId, putItem, queryPage, GSI1 } from "../../platform/db/table.js";
import { clientKeyKey, keysOfProjectIndex, type ClientKeyRecord } from "./contracts.js";

export const hashSecret = (secret: string) => createHash("sha256").update(secret).digest("hex");

export async function createClientKey(projectId: number): Promise<{ record: ClientKeyRecord; secret: string }> {
  const id = await nextId("error_tracking_client_keys");
  const secret = randomBytes(16).toString("hex");
  const record: ClientKeyRecord = {
    id,
    projectId,
    publicKey: `glet_${randomBytes(16).toString("hex")}`,
    secretHash: hashSecret(secret),
    active: true,
    createdAt: new Date().toISOString(),
  };
  await putItem({ ...clientKeyKey(record.publicKey), ...keysOfProjectIndex(projectId, id), type: "etkey", ...record }, { expression: "attribute_not_exists(pk)" });
  return { record, secret };
}

const keysPk = (projectId: number) => keysOfProjectIndex(projectId, 0).gsi1pk;

/** Oldest first, as GitLab lists them (by id). */
export async function listClientKeys(projectId: number, offset: number, limit: number) {
  return queryPage<ClientKeyRecord>({ index: GSI1, pk: keysPk(projectId), ascending: true, offset, limit });
}

export async function hasActiveKey(projectId: number): Promise<boolean> {
  const page = await queryPage<ClientKeyRecord>({ index: GSI1, pk: keysPk(projectId), ascending: true, offset: 0, limit: 1, filter: { expression: "active = :t", values: { ":t": true } } });
  return page.items.length > 0;
}

export async function findClientKey(projectId: number, keyId: number): Promise<ClientKeyRecord | undefined> {
  const { gsi1sk } = keysOfProjectIndex(projectId, keyId);
  const page = await queryPage<ClientKeyRecord>({ index: GSI1, pk: keysPk(projectId), skPrefix: gsi1sk, offset: 0, limit: 1 });
  const hit = page.items.find((k) => k.id === keyId);
  // The index is eventually consistent; the base item is the truth (it may just have been deleted).
  return hit ? getItem<ClientKeyRecord>(clientKeyKey(hit.publicKey).pk, clientKeyKey(hit.publicKey).sk) : undefined;
}

/** Deleting the item is what stops ingestion with the key (ingest caches lookups only briefly). */
export async function deleteClientKey(projectId: number, keyId: number): Promise<ClientKeyRecord | undefined> {
  const record = await findClientKey(projectId, keyId);
  if (!record) return undefined;
  const key = clientKeyKey(record.publicKey);
  await deleteItem(key.pk, key.sk);
  return record;
}

/** `http(s)://<public_key>[:<secret>]@<host>/api/v4/error_tracking/collector/<project_id>` (GitLab B.4). */
export function dsnOf(ingestBase: string, publicKey: string, projectId: number, secret?: string): string {
  const url = new URL(ingestBase);
  const path = url.pathname.replace(/\/+$/, "");
  const auth = secret ? `${publicKey}:${secret}` : publicKey;
  return `${url.protocol}//${auth}@${url.host}${path}/api/v4/error_tracking/collector/${projectId}`;
}
