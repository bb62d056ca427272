/**
 * The consumer's whole part in alerting: one queue message per hook and trigger, on `HookQueue`.
 * Sending the same message again (a redelivered event) is harmless: its delivery id is the same, and
 * the hook worker claims each delivery id once (`delivery.ts`).
 */
import { SendMessageBatchCommand } from "@aws-sdk/client-sqs";
import { sqsClient } from "../../platform/aws-sqs.js";
import { linked, required } from "../../platform/resources.js";
import { deliveryId, hooksFor, triggerKey, type Trigger } from "./triggers.js";
import type { HookRecord } from "./store.js";

/** Linked only to the consumer and the hook worker (kept out of `resources`, which every handler bundles). */
export const hookQueueUrl = () => required(linked("HookQueue").url, "HookQueue");

export interface DeliveryMessage {
  deliveryId: string;
  projectId: number;
  hookId: number;
  /** The triggering event. */
  eventId: string;
  trigger: Trigger;
}

/** The deliveries of every event's triggers, ten to a `SendMessageBatch`. */
export async function enqueueDeliveries(projectId: number, fired: ReadonlyArray<{ eventId: string; triggers: readonly Trigger[] }>, hooks: readonly HookRecord[]): Promise<void> {
  const messages: DeliveryMessage[] = fired.flatMap(({ eventId, triggers }) =>
    triggers.flatMap((trigger) => hooksFor(trigger, hooks).map((hook) => ({ deliveryId: deliveryId(hook.id, triggerKey(trigger, eventId)), projectId, hookId: hook.id, eventId, trigger }))),
  );
  for (let i = 0; i < messages.length; i += 10) {
    const chunk = messages.slice(i, i + 10);
    const out = await sqsClient().send(new SendMessageBatchCommand({ QueueUrl: hookQueueUrl(), Entries: chunk.map((m, j) => ({ Id: String(j), MessageBody: JSON.stringify(m) })) }));
    // A refused entry fails the event's message: SQS delivers it again and this runs again.
    if (out.Failed?.length) throw new Error(`hook queue refused ${out.Failed.length} of ${chunk.length} deliveries`);
  }
}
