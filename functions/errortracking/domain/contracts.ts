/**
 * The contract between the two halves of error tracking: the ingest function (function URL →
 * authenticate → validate → SQS) and the rest (settings and keys API, the SQS consumer, reads,
 * retention). Both sides import these names; neither reaches into the other's modules.
 *
 * | item                        | pk                           | sk        | notes                                       |
 * |-----------------------------|------------------------------|-----------|---------------------------------------------|
 * | error tracking setting      | PROJECT#<projectId>          | ETSETTING | `ErrorTrackingSetting`                      |
 * | client key                  | ETKEY#<public_key>           | ETKEY     | `ClientKeyRecord`; gsi1 = keys of a project  |
 */
import * as z from "zod/mini";
import { pad } from "../../platform/db/table.js";

export const settingKey = (projectId: number) => ({ pk: `PROJECT#${projectId}`, sk: "ETSETTING" });

export interface ErrorTrackingSetting {
  projectId: number;
  /** The "Active" checkbox. */
  enabled: boolean;
  /** true = this service stores the errors; false = a third-party tracker (api_url + token). */
  integrated: boolean;
  apiUrl: string | null;
  projectName: string | null;
  organizationName: string | null;
  /** Third-party token, encrypted (never returned by the API). */
  tokenCiphertext?: string | null;
}

export const clientKeyKey = (publicKey: string) => ({ pk: `ETKEY#${publicKey}`, sk: "ETKEY" });
export const keysOfProjectIndex = (projectId: number, keyId: number) => ({ gsi1pk: `PROJECT#${projectId}#ETKEYS`, gsi1sk: pad(keyId) });

export interface ClientKeyRecord {
  id: number;
  projectId: number;
  /** `glet_` + 32 hex characters; public by design (it is in the DSN). */
  publicKey: string;
  /** SHA-256 of the secret of the deprecated `public:secret@` DSN form; the secret itself is never stored. */
  secretHash: string;
  active: boolean;
  createdAt: string;
}

/** What the ingest function puts on the queue: one message per accepted event or session update. */
export const ingestMessageSchema = z.object({
  /** 32 lowercase hex characters: the SDK's `event_id`, or one generated at ingest. Idempotency key. */
  eventId: z.string().check(z.regex(/^[0-9a-f]{32}$/)),
  projectId: z.number().check(z.int(), z.positive()),
  keyId: z.number().check(z.int(), z.positive()),
  /** ISO time the ingest function accepted it. */
  receivedAt: z.string(),
  kind: z.enum(["event", "session"]),
  /**
   * The event (Sentry event JSON, `exception` normalised to `{values: [...]}`) or the session update
   * (Sentry session JSON). Ingest trims oversized events (breadcrumbs, extra, frame variables) so
   * a message stays under 240 KB, below SQS's 256 KB limit.
   */
  payload: z.record(z.string(), z.unknown()),
});
export type IngestMessage = z.infer<typeof ingestMessageSchema>;

/** Largest message body ingest may send (bytes). */
export const MAX_MESSAGE_BYTES = 240 * 1024;
